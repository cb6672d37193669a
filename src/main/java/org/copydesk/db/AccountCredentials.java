package org.copydesk.db;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The sign-in credentials of the newsroom's accounts (people and other systems), as the server
 * stores them: the authentication plugin and its hashed password, never the password itself. A
 * backup keeps them, so everyone signs in with their old password after a restore; the rights are
 * not kept, they follow from each account's role ({@code regrant_accounts}) once the data is back.
 *
 * <p>Reading them needs {@code SELECT} on {@code mysql.user} (a view on MariaDB 10.4+, a table on
 * MySQL 8): the database owner's account. Writing them back builds account statements, which take
 * no bind values, only from allow-listed parts: a checked account name, a plugin from a fixed list
 * and the hash as hexadecimal digits, each checked before it is used.
 */
public final class AccountCredentials {

    /** One account's stored credential: the plugin and its authentication string, in hexadecimal. */
    public record Credential(String name, String plugin, String hashHex) {
    }

    /** The names Copydesk gives accounts: a person's or an integration's ({@code Newsroom}, V5). */
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1,64}");
    private static final Pattern HEX = Pattern.compile("([0-9A-F]{2}){0,512}");
    /** MariaDB's hashes are printable: its account statements take them as a quoted string. */
    private static final Pattern PRINTABLE = Pattern.compile("[A-Za-z0-9*+/=$.]*");
    private static final Set<String> MARIADB_PLUGINS = Set.of("mysql_native_password", "ed25519");
    private static final Set<String> MYSQL_PLUGINS = Set.of("mysql_native_password", "caching_sha2_password", "sha256_password");

    private AccountCredentials() {
    }

    /** The credentials of the named accounts ({@code 'name'@'%'}) that exist on the server. */
    static List<Credential> read(Connection c, List<String> names) throws SQLException {
        List<Credential> found = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement(
                "SELECT plugin, HEX(authentication_string) FROM mysql.user WHERE user = ? AND host = '%'")) {
            for (String name : names) {
                s.setString(1, name);
                try (ResultSet rs = s.executeQuery()) {
                    if (rs.next()) {
                        found.add(new Credential(name, rs.getString(1), rs.getString(2) == null ? "" : rs.getString(2)));
                    }
                }
            }
        }
        return found;
    }

    /**
     * Whether the server has an account of this name that is the server's own: one for a particular
     * host, or one with any right on the whole server (a DBA's). Copydesk never creates, changes or
     * drops those ({@code require_person}, {@code managed_account}); a restore leaves them as they
     * are whatever the backup file says, so a file that names such an account cannot set its password.
     */
    static boolean serversOwn(Connection c, String name) throws SQLException {
        // information_schema's names are utf8mb3 with a collation of their own: compared as utf8mb4, case and all
        try (PreparedStatement s = c.prepareStatement("SELECT EXISTS (SELECT 1 FROM mysql.user"
                + " WHERE CONVERT(user USING utf8mb4) COLLATE utf8mb4_bin = CONVERT(? USING utf8mb4) COLLATE utf8mb4_bin AND host <> '%')"
                + " OR EXISTS (SELECT 1 FROM information_schema.user_privileges"
                + " WHERE CONVERT(grantee USING utf8mb4) COLLATE utf8mb4_bin"
                + " = CONVERT(CONCAT('''', ?, '''@''%''') USING utf8mb4) COLLATE utf8mb4_bin AND privilege_type <> 'USAGE')")) {
            s.setString(1, name);
            s.setString(2, name);
            try (ResultSet rs = s.executeQuery()) {
                return rs.next() && rs.getBoolean(1);
            }
        }
    }

    /**
     * Creates the account with its old credential (or gives an existing one that credential).
     * Empty when this server cannot take it (a MySQL {@code caching_sha2_password} hash on MariaDB):
     * the account is then not made, and the person needs a new password.
     */
    static Optional<String> write(Connection c, Credential credential, boolean mariaDb) throws SQLException {
        if (!NAME.matcher(credential.name()).matches() || credential.name().equalsIgnoreCase("root")) {
            throw new DatabaseSetupException("The backup names an account '" + credential.name() + "' that Copydesk never makes.");
        }
        if (!HEX.matcher(credential.hashHex()).matches()) {
            throw new DatabaseSetupException("The backup's credential of '" + credential.name() + "' is damaged.");
        }
        Optional<String> identified = identifiedClause(credential, mariaDb);
        if (identified.isEmpty()) {
            return Optional.empty();
        }
        String account = "'" + credential.name() + "'@'%'";
        try (Statement s = c.createStatement()) {
            s.execute("CREATE USER IF NOT EXISTS " + account + " " + identified.get());
            s.execute("ALTER USER " + account + " " + identified.get());
        }
        return Optional.of(credential.name());
    }

    private static Optional<String> identifiedClause(Credential credential, boolean mariaDb) {
        String plugin = credential.plugin();
        if (mariaDb) {
            String hash = new String(HexFormat.of().parseHex(credential.hashHex()), java.nio.charset.StandardCharsets.US_ASCII);
            if (!MARIADB_PLUGINS.contains(plugin) || !PRINTABLE.matcher(hash).matches()) {
                return Optional.empty();
            }
            return Optional.of("IDENTIFIED VIA " + plugin + " USING '" + hash + "'");
        }
        if (!MYSQL_PLUGINS.contains(plugin)) {
            return Optional.empty();
        }
        // MySQL 8.0.17+ takes the hash as a hexadecimal literal (its salt may hold any byte)
        return Optional.of("IDENTIFIED WITH " + plugin + (credential.hashHex().isEmpty() ? "" : " AS 0x" + credential.hashHex()));
    }
}
