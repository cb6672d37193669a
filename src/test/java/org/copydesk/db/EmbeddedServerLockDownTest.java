package org.copydesk.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The embedded server is locked down like a shared one: other local users of the PC, with a MySQL
 * client of their own, cannot get in as {@code root} by TCP or by the socket.
 */
class EmbeddedServerLockDownTest {

    private Path folder;
    private EmbeddedServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
        if (folder != null) {
            EmbeddedServerTestFolders.stopLeftovers(folder);
        }
    }

    private EmbeddedServer start(Path serverFolder) {
        return EmbeddedServer.startOrAttach(new EmbeddedServer.Options(serverFolder, "127.0.0.1", 0,
                EmbeddedServer.Mode.DESKTOP, Duration.ofSeconds(90)));
    }

    @Test
    void rootWithoutThePasswordIsRefusedByTcpAndBySocketAndOnlyLoopbackRootRemains() throws Exception {
        folder = EmbeddedServerTestFolders.fresh().resolve("server");
        server = start(folder);

        assertThatThrownBy(() -> DriverManager.getConnection("jdbc:mysql://127.0.0.1:" + server.port() + "/?sslMode=DISABLED",
                "root", "")).as("root without a password over TCP").isInstanceOf(SQLException.class)
                .hasMessageContaining("Access denied");
        Path socket = folder.resolve("run").resolve("mariadb.sock");
        ClientRun noPassword = mariadbClient(socket, "root", null);
        assertThat(noPassword.exitCode()).as("root without a password over the socket: " + noPassword.output()).isNotZero();
        assertThat(noPassword.output()).contains("Access denied");
        ClientRun withPassword = mariadbClient(socket, "root", new String(server.rootPassword()));
        assertThat(withPassword.exitCode()).as("the same client with the password (so the socket path is right): "
                + withPassword.output()).isZero();

        try (Connection c = RootSecret.rootConnection(folder, "127.0.0.1", server.port(), 5);
             Statement s = c.createStatement()) {
            assertThat(strings(s, "SELECT CONCAT(user, '@', host) FROM mysql.user WHERE user IN ('root', '')"))
                    .containsExactlyInAnyOrder("root@localhost", "root@127.0.0.1");
            assertThat(strings(s, "SHOW DATABASES LIKE 'test'")).isEmpty();
            assertThat(strings(s, "SELECT COUNT(*) FROM mysql.db WHERE Db LIKE 'test%'")).containsExactly("0");
            assertThat(strings(s, "SELECT @@secure_file_priv").get(0)).startsWith(folder.resolve("files").toString());
            assertThat(strings(s, "SELECT @@local_infile")).containsExactly("0");
            // not a lock-down, but read from the same started server: a few threads run every
            // connection's statements (claim benchmark: no collapse with 64 editors on two cores)
            assertThat(strings(s, "SELECT @@thread_handling")).containsExactly("pool-of-threads");
            assertThat(strings(s, "SELECT @@innodb_autoinc_lock_mode")).containsExactly("2");
        }
        if (Files.getFileStore(folder).supportsFileAttributeView("posix")) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(folder.resolve("root.password"))))
                    .isEqualTo("rw-------");
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(folder.resolve("run"))))
                    .isEqualTo("rwx------");
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(folder))).isEqualTo("rwx------");
        }
    }

    @Test
    void aPasswordWrittenBeforeTheServerGotItIsSetAtTheNextStart() throws Exception {
        folder = EmbeddedServerTestFolders.fresh().resolve("server");
        // as after a crash between writing the file and changing the password
        Files.createDirectories(folder);
        Files.writeString(folder.resolve("root.password"), "writtenButNeverSet23\n", StandardCharsets.US_ASCII);
        server = start(folder);

        try (Connection c = DriverManager.getConnection("jdbc:mysql://127.0.0.1:" + server.port() + "/?sslMode=DISABLED",
                "root", "writtenButNeverSet23")) {
            assertThat(c.isValid(2)).isTrue();
        }
        assertThatThrownBy(() -> DriverManager.getConnection("jdbc:mysql://127.0.0.1:" + server.port() + "/?sslMode=DISABLED",
                "root", "")).isInstanceOf(SQLException.class);
    }

    private record ClientRun(int exitCode, String output) {
    }

    /** The server's own command-line client: a program that is not Copydesk. */
    private ClientRun mariadbClient(Path socket, String user, String password) throws IOException, InterruptedException {
        Path bin = folder.resolve("mariadb").resolve("bin");
        Path client = Files.exists(bin.resolve("mariadb")) ? bin.resolve("mariadb") : bin.resolve("mysql");
        List<String> command = new ArrayList<>(List.of(client.toString(), "--no-defaults", "--skip-ssl", "--protocol=SOCKET",
                "--socket=" + socket, "-u" + user, "-e", "SELECT 1"));
        if (password != null) {
            command.add(5, "-p" + password);
        }
        ProcessBuilder b = new ProcessBuilder(command).redirectErrorStream(true);
        b.environment().put("LD_LIBRARY_PATH", folder.resolve("mariadb").resolve("libs").toString());
        Process p = b.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
        }
        return new ClientRun(p.exitValue(), out);
    }

    private static List<String> strings(Statement s, String sql) throws SQLException {
        List<String> values = new ArrayList<>();
        try (ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                values.add(rs.getString(1));
            }
        }
        return values;
    }
}
