package org.copydesk.db;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded server's administrator password, and the lock-down that puts it in place.
 *
 * <p>MariaDB's installer leaves {@code root} without a password, so any local user of the PC could
 * connect as it, by TCP or the socket. At the first start (and at the first start of a data folder
 * made by an older Copydesk) Copydesk writes a random password to {@code root.password}, readable
 * only by the OS user, and then sets it; the file is written first, so a crash in between is
 * recovered at the next start. Only {@code root@localhost} (socket) and {@code root@127.0.0.1}
 * (loopback TCP) remain; anonymous accounts and the open {@code test} database go.
 */
final class RootSecret {

    private static final Logger log = LoggerFactory.getLogger(RootSecret.class);
    private static final String FILE = "root.password";

    private RootSecret() {
    }

    static Optional<char[]> read(Path folder) {
        Path file = folder.resolve(FILE);
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        try {
            return Optional.of(Files.readString(file, StandardCharsets.US_ASCII).strip().toCharArray());
        } catch (IOException e) {
            throw new DatabaseSetupException("Cannot read the embedded server's administrator password " + file
                    + ": " + e.getMessage(), e);
        }
    }

    /**
     * A root connection with the stored password; while the server still has none (a fresh or an
     * older data folder), with none.
     */
    static Connection connect(Path folder, String host, int port, int timeoutSeconds, boolean tls) throws SQLException {
        Optional<char[]> secret = read(folder);
        if (secret.isEmpty()) {
            return rootConnection(host, port, timeoutSeconds, "", tls);
        }
        try {
            return rootConnection(host, port, timeoutSeconds, new String(secret.get()), tls);
        } catch (SQLException e) {
            if (e.getErrorCode() != 1045) {
                throw e;
            }
            // the file was written but the server never got the password (a crash in between)
            return rootConnection(host, port, timeoutSeconds, "", tls);
        }
    }

    /** Root with the stored password (none while there is no password file): Copydesk's own administrator connections. */
    static Connection rootConnection(Path folder, String host, int port, int timeoutSeconds, boolean tls) throws SQLException {
        return rootConnection(host, port, timeoutSeconds, read(folder).map(String::new).orElse(""), tls);
    }

    static Connection rootConnection(Path folder, String host, int port, int timeoutSeconds) throws SQLException {
        return rootConnection(folder, host, port, timeoutSeconds, false);
    }

    static Connection rootConnection(String host, int port, int timeoutSeconds, String password, boolean tls)
            throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", EmbeddedServer.ROOT_USER);
        p.setProperty("password", password);
        p.setProperty("sslMode", tls ? "REQUIRED" : "DISABLED");
        p.setProperty("connectTimeout", Integer.toString(timeoutSeconds * 1000));
        p.setProperty("socketTimeout", Integer.toString(Math.max(timeoutSeconds, 5) * 1000));
        return DriverManager.getConnection("jdbc:mysql://" + host + ":" + port + "/", p);
    }

    /** Gives root its password and removes every other way in, unless already done. */
    static void lockDown(Path folder, String host, int port, boolean tls) throws SQLException {
        String password;
        try (Connection open = rootConnection(host, port, 5, "", tls)) {
            password = read(folder).map(String::new).orElseGet(() -> write(folder, generate()));
            lockDown(open, password);
        } catch (SQLException e) {
            if (e.getErrorCode() == 1045 && read(folder).isPresent()) {
                return; // root has its password already
            }
            throw e;
        }
        log.info("Secured the embedded server's administrator account (password in {})", folder.resolve(FILE));
    }

    private static void lockDown(Connection c, String password) throws SQLException {
        List<String> doomed = new ArrayList<>();
        boolean hasLoopback = false;
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT user, host FROM mysql.user")) {
            while (rs.next()) {
                String user = rs.getString(1);
                String host = rs.getString(2);
                if (user.isEmpty() || user.equals(EmbeddedServer.ROOT_USER) && !host.equals("localhost") && !host.equals("127.0.0.1")) {
                    doomed.add("'" + user.replace("'", "''") + "'@'" + host.replace("'", "''") + "'");
                }
                hasLoopback |= user.equals(EmbeddedServer.ROOT_USER) && host.equals("127.0.0.1");
            }
        }
        try (Statement s = c.createStatement()) {
            for (String account : doomed) {
                s.execute("DROP USER " + account);
            }
            if (!hasLoopback) {
                s.execute("CREATE USER 'root'@'127.0.0.1'");
                s.execute("GRANT ALL PRIVILEGES ON *.* TO 'root'@'127.0.0.1' WITH GRANT OPTION");
            }
            s.execute("DROP DATABASE IF EXISTS test");
            // the installer's grants to everyone on `test` and `test\_%` (stored with the backslash)
            s.execute("DELETE FROM mysql.db WHERE Db = 'test' OR Db = CONCAT('test', CHAR(92), '_%')");
            s.execute("FLUSH PRIVILEGES");
        }
        if (!password.chars().allMatch(ch -> RandomPasswords.ALPHABET.indexOf(ch) >= 0)) {
            throw new DatabaseSetupException("The embedded server's administrator password file holds characters Copydesk "
                    + "never writes; delete it to have a new one made.");
        }
        // Account statements take no bind values; the password is of our own alphabet, checked above.
        // The connection in use is root@127.0.0.1: change the socket's account first.
        for (String account : List.of("'root'@'localhost'", "'root'@'127.0.0.1'")) {
            try (Statement s = c.createStatement()) {
                s.execute("ALTER USER " + account + " IDENTIFIED BY '" + password + "'");
            } catch (SQLException e) {
                if (!account.contains("localhost") || e.getErrorCode() != 1396) { // no root@localhost: nothing to change
                    throw e;
                }
            }
        }
    }

    private static String generate() {
        return new String(RandomPasswords.of(32));
    }

    private static String write(Path folder, String password) {
        Path file = folder.resolve(FILE);
        Path tmp = folder.resolve(FILE + ".tmp");
        try {
            Files.deleteIfExists(tmp);
            if (isPosix()) {
                Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            }
            Files.writeString(tmp, password + "\n", StandardCharsets.US_ASCII);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            return password;
        } catch (IOException e) {
            throw new DatabaseSetupException("Cannot write the embedded server's administrator password to " + file
                    + ": " + e.getMessage(), e);
        }
    }

    /** Lets only the OS user into {@code dir} (the socket's folder, the server's folder). */
    static void ownerOnly(Path dir) throws IOException {
        if (isPosix() && Files.isDirectory(dir)) {
            Set<PosixFilePermission> owner = PosixFilePermissions.fromString("rwx------");
            Files.setPosixFilePermissions(dir, owner);
        }
    }

    private static boolean isPosix() {
        return FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
    }
}
