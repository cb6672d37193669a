package org.copydesk.db;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jooq.SQLDialect;

/**
 * What the connected server is and what it can do, read once at start-up. Everything that differs
 * between MySQL and MariaDB versions is decided from here.
 *
 * @param mariaDb     MariaDB rather than MySQL
 * @param version     the server's version string as reported by {@code VERSION()}
 */
public record ServerCapabilities(boolean mariaDb, int major, int minor, int patch, String version) {

    private static final Pattern VERSION = Pattern.compile("(\\d+)\\.(\\d+)\\.(\\d+)");
    private static final String MARIADB_HANDSHAKE_PREFIX = "5.5.5-";

    /** Parses a {@code VERSION()} string such as {@code 8.4.3} or {@code 11.4.5-MariaDB-log}. */
    public static ServerCapabilities parse(String versionString) {
        boolean maria = versionString.toLowerCase(Locale.ROOT).contains("mariadb");
        // MariaDB before 11 announces itself as "5.5.5-10.x.y-MariaDB" in the protocol handshake (for
        // old replication clients); drivers and proxies may pass that string on. The real version follows.
        String digits = maria && versionString.startsWith(MARIADB_HANDSHAKE_PREFIX)
                ? versionString.substring(MARIADB_HANDSHAKE_PREFIX.length()) : versionString;
        Matcher m = VERSION.matcher(digits);
        if (!m.find()) {
            throw new DatabaseSetupException("Cannot read the database server's version from '" + versionString + "'.");
        }
        return new ServerCapabilities(maria, Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)),
                Integer.parseInt(m.group(3)), versionString);
    }

    public static ServerCapabilities detect(Connection connection) throws SQLException {
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery("SELECT VERSION()")) {
            rs.next();
            return parse(rs.getString(1));
        }
    }

    /** {@code FOR UPDATE SKIP LOCKED}: MySQL 8.0.1+, MariaDB 10.6+. */
    public boolean supportsSkipLocked() {
        return mariaDb ? atLeast(10, 6, 0) : atLeast(8, 0, 1);
    }

    /**
     * Can this server run Copydesk? It needs DATETIME(6), enforced CHECK constraints (MySQL
     * 8.0.16+) and, on MariaDB, 10.6+: jOOQ's MariaDB dialect writes {@code OFFSET … FETCH}, which
     * MariaDB parses from 10.6, the same release that brought SKIP LOCKED. Older servers are
     * refused with a clear message rather than failing later on a claim.
     */
    public boolean supportsSchema() {
        return mariaDb ? atLeast(10, 6, 0) : atLeast(8, 0, 16);
    }

    public String minimumSupported() {
        return "MySQL 8.0.16 or MariaDB 10.6";
    }

    public String product() {
        return (mariaDb ? "MariaDB " : "MySQL ") + major + "." + minor + "." + patch;
    }

    public SQLDialect dialect() {
        return mariaDb ? SQLDialect.MARIADB : SQLDialect.MYSQL;
    }

    public boolean atLeast(int maj, int min, int pat) {
        if (major != maj) {
            return major > maj;
        }
        if (minor != min) {
            return minor > min;
        }
        return patch >= pat;
    }
}
