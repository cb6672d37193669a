package org.copydesk.db;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The settings of a server someone else set up that Copydesk cannot pin for its own sessions, each
 * named in one line with its fix: by {@code copydesk doctor}, and by the migration before it
 * changes anything. What Copydesk can pin it pins instead, and says so in docs/servers.md: the SQL
 * mode, autocommit and collation of its sessions ({@link DataSources#SESSION_VARIABLES}); the
 * isolation, time zone and lock waits of every operation ({@code operation_begins}); the
 * database's character set, which the owner's migration converts ({@link DatabaseCharacterSet}).
 */
public final class ServerSettings {

    /** "You do not have the SUPER privilege and binary logging is enabled": creating a function or trigger. */
    private static final int ROUTINE_NEEDS_TRUST = 1419;
    /** MySQL/MariaDB: "The MySQL server is running with the --read-only option so it cannot execute this statement". */
    private static final int SERVER_READ_ONLY = 1290;

    private ServerSettings() {
    }

    /** One line for each setting of the server or database of {@code database} that stops Copydesk; empty when none does. */
    public static List<String> problems(Database database) {
        return problems(database.dataSource());
    }

    /** One line for each setting of the server or database that stops Copydesk; empty when none does. */
    static List<String> problems(DataSource dataSource) {
        List<String> problems = new ArrayList<>(read(dataSource, ServerSettings::unmigratable));
        DatabaseCharacterSet.problem(dataSource).ifPresent(problems::add);
        return problems;
    }

    /** Refuses, before anything changes, to migrate where the migration could not finish or should not run. */
    static void requireMigratable(DataSource dataSource) {
        List<String> refusals = read(dataSource, ServerSettings::unmigratable);
        if (!refusals.isEmpty()) {
            throw new DatabaseSetupException(refusals.get(0) + " Nothing was changed.");
        }
    }

    /** Refuses a read-only server ({@link #readOnly}) in one line: every claim and decision would fail there. */
    static void refuseReadOnly(DataSource dataSource) {
        read(dataSource, ServerSettings::readOnly).ifPresent(refusal -> {
            throw new DatabaseSetupException(refusal);
        });
    }

    /** The settings a migration cannot run under: a read-only server, a binary log that refuses the owner's routines. */
    private static List<String> unmigratable(Connection c) throws SQLException {
        List<String> found = new ArrayList<>();
        readOnly(c).ifPresent(found::add);
        binaryLogWithoutTrust(c).ifPresent(found::add);
        return found;
    }

    /** What {@code reading} finds through a connection of its own. */
    private static <T> T read(DataSource dataSource, Reading<T> reading) {
        try (Connection c = dataSource.getConnection()) {
            return reading.from(c);
        } catch (SQLException e) {
            throw new DatabaseSetupException("Reading the server's settings failed: " + e.getMessage(), e);
        }
    }

    @FunctionalInterface
    private interface Reading<T> {
        T from(Connection c) throws SQLException;
    }

    /**
     * A server that takes no writes ({@code read_only}, MySQL's {@code super_read_only}, {@code
     * innodb_read_only}): a replica, or a primary set aside, reached by mistake. {@code read_only}
     * does not stop an account with SUPER (or MariaDB's READ_ONLY ADMIN), so an owner's migration
     * would otherwise change a replica.
     */
    static Optional<String> readOnly(Connection c) throws SQLException {
        for (String variable : List.of("read_only", "super_read_only", "innodb_read_only")) {
            Optional<String> value = variable(c, variable);
            if (value.isPresent() && isOn(value.get())) {
                return Optional.of("The database server takes no writes (" + variable + " is ON): it is a replica, or was set"
                        + " aside; point Copydesk at the primary server (--db-url), or ask the DBA to run SET GLOBAL " + variable
                        + " = OFF if it should take writes.");
            }
        }
        return Optional.empty();
    }

    /**
     * Binary logging (MySQL 8's default, and any server that replicates) lets only an account with
     * SUPER create routines unless {@code log_bin_trust_function_creators} is on; the owner
     * docs/security.md describes has no SUPER.
     */
    static Optional<String> binaryLogWithoutTrust(Connection c) throws SQLException {
        boolean logging = variable(c, "log_bin").map(ServerSettings::isOn).orElse(false);
        boolean trusted = variable(c, "log_bin_trust_function_creators").map(ServerSettings::isOn).orElse(false);
        // an account that may not create routines is refused for that first, in its own words
        if (!logging || trusted || holds(c, "SUPER") || !holds(c, "CREATE ROUTINE")) {
            return Optional.empty();
        }
        return Optional.of(binaryLogLine());
    }

    /** The one line for a routine the server refused to create because it logs changes (error 1419). */
    static String binaryLogLine() {
        return "The database server keeps a binary log and lets only an account with SUPER create routines there, so the"
                + " owner cannot create Copydesk's operations. Ask the DBA to set log_bin_trust_function_creators = 1 (MySQL 8:"
                + " SET PERSIST log_bin_trust_function_creators = 1; MariaDB: SET GLOBAL log_bin_trust_function_creators = 1"
                + " and the same in the server's configuration file), then run copydesk db migrate again.";
    }

    /** The line for a failed migration whose cause is a setting named here, or empty when it is something else. */
    static Optional<String> explain(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof SQLException e && e.getErrorCode() == ROUTINE_NEEDS_TRUST) {
                return Optional.of(binaryLogLine());
            }
            if (t instanceof SQLException e && e.getErrorCode() == SERVER_READ_ONLY) {
                return Optional.of("The database server takes no writes (read_only): it is a replica, or was set aside;"
                        + " point Copydesk at the primary server (--db-url).");
            }
        }
        return Optional.empty();
    }

    /** Does the signed-in account hold {@code privilege} on the whole server or on this database? */
    private static boolean holds(Connection c, String privilege) throws SQLException {
        // information_schema names an account 'name'@'host'; CURRENT_USER() says name@host
        try (PreparedStatement ps = c.prepareStatement("SELECT (SELECT COUNT(*) FROM information_schema.USER_PRIVILEGES"
                + " WHERE PRIVILEGE_TYPE = ? AND REPLACE(GRANTEE, '''', '') = CURRENT_USER())"
                + " + (SELECT COUNT(*) FROM information_schema.SCHEMA_PRIVILEGES WHERE PRIVILEGE_TYPE = ?"
                + " AND TABLE_SCHEMA = DATABASE() AND REPLACE(GRANTEE, '''', '') = CURRENT_USER())")) {
            ps.setString(1, privilege);
            ps.setString(2, privilege);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1) > 0;
            }
        }
    }

    /** A global variable's value, or empty on a server that has no such variable. */
    private static Optional<String> variable(Connection c, String name) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SHOW GLOBAL VARIABLES LIKE '" + name + "'")) {
            return rs.next() ? Optional.ofNullable(rs.getString(2)) : Optional.empty();
        }
    }

    private static boolean isOn(String value) {
        String v = value.trim().toUpperCase(Locale.ROOT);
        return v.equals("ON") || v.equals("1") || v.equals("TRUE");
    }
}
