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
 * @param mariaDb          MariaDB rather than MySQL
 * @param version          the server's version string as reported by {@code VERSION()}
 * @param announcedVersion the version the server announced in the protocol handshake, which is
 *                         what Connector/J goes by ({@code DatabaseMetaData.getDatabaseProductVersion()});
 *                         MariaDB before 11.0 announces {@code 5.5.5-10.x.y-MariaDB} there
 * @param galera           the server is a node of a Galera cluster ({@code wsrep_on}): row locks
 *                         are this node's only, and a write that collides with one committed on
 *                         another node fails at commit with a deadlock (1213)
 */
public record ServerCapabilities(boolean mariaDb, int major, int minor, int patch, String version, String announcedVersion,
                                 boolean galera) {

    private static final Pattern VERSION = Pattern.compile("(\\d+)\\.(\\d+)\\.(\\d+)");
    private static final Pattern LEADING_VERSION = Pattern.compile("^(\\d+)\\.(\\d+)\\.(\\d+)");
    private static final String MARIADB_HANDSHAKE_PREFIX = "5.5.5-";

    /** Parses a {@code VERSION()} string such as {@code 8.4.3} or {@code 11.4.5-MariaDB-log}. */
    public static ServerCapabilities parse(String versionString) {
        return parse(versionString, versionString);
    }

    /**
     * Parses {@code VERSION()} and the version announced in the handshake (they differ on MariaDB
     * before 11.0: {@code 10.11.19-MariaDB} and {@code 5.5.5-10.11.19-MariaDB}).
     */
    public static ServerCapabilities parse(String versionString, String announcedVersion) {
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
                Integer.parseInt(m.group(3)), versionString, announcedVersion, false);
    }

    /** The same server, known to be (or not to be) a Galera node. */
    public ServerCapabilities withGalera(boolean galeraNode) {
        return new ServerCapabilities(mariaDb, major, minor, patch, version, announcedVersion, galeraNode);
    }

    public static ServerCapabilities detect(Connection connection) throws SQLException {
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery("SELECT VERSION()")) {
            rs.next();
            ServerCapabilities caps = parse(rs.getString(1), connection.getMetaData().getDatabaseProductVersion());
            return caps.withGalera(isGaleraNode(s));
        }
    }

    /** {@code wsrep_on} is ON on a Galera node; MySQL and a MariaDB without Galera have no such variable or OFF. */
    private static boolean isGaleraNode(Statement s) throws SQLException {
        try (ResultSet rs = s.executeQuery("SHOW GLOBAL VARIABLES LIKE 'wsrep_on'")) {
            return rs.next() && "ON".equalsIgnoreCase(rs.getString(2));
        }
    }

    /**
     * Does Connector/J cut the fractions of a second off every date-time it binds to a statement?
     * It decides once per connection from the handshake's version: fractional seconds arrived in
     * MySQL 5.6.4, and a server announcing less gets whole seconds ({@code NativeCapabilities}:
     * {@code serverVersion.meetsMinimum(new ServerVersion(5, 6, 4))}; {@code sendFractionalSeconds}
     * can only turn fractions off, not on). MariaDB 10.x announces {@code 5.5.5-10.x.y-MariaDB}, which
     * the driver reads as 5.5.5, although MariaDB has kept microseconds since 5.3; MariaDB 11.0
     * dropped the prefix. {@link DataSources#forServer} then sends date-times as text, which the
     * server converts with their fractions.
     */
    public boolean driverDropsFractionalSeconds() {
        Matcher m = LEADING_VERSION.matcher(announcedVersion == null ? "" : announcedVersion);
        if (!m.find()) {
            return false;
        }
        int maj = Integer.parseInt(m.group(1));
        int min = Integer.parseInt(m.group(2));
        int pat = Integer.parseInt(m.group(3));
        return maj != 5 ? maj < 5 : min != 6 ? min < 6 : pat < 4;
    }

    /** {@code FOR UPDATE SKIP LOCKED}: MySQL 8.0.1+, MariaDB 10.6+. */
    public boolean supportsSkipLocked() {
        return has(Feature.SKIP_LOCKED);
    }

    /** A server feature Copydesk relies on, and the first release of each server that has it. */
    public enum Feature {
        CHECK_CONSTRAINTS("enforced CHECK constraints (the schema's rules on states, capacities and lease lengths)", 8, 0, 16, 10, 2, 1),
        SKIP_LOCKED("SELECT … FOR UPDATE SKIP LOCKED (editors never wait for each other's claims)", 8, 0, 1, 10, 6, 0),
        OFFSET_FETCH("OFFSET … FETCH, which jOOQ writes for MariaDB (not used on MySQL)", 0, 0, 0, 10, 6, 0);

        private final String description;
        private final int[] mysql;
        private final int[] mariaDb;

        Feature(String description, int myMajor, int myMinor, int myPatch, int maMajor, int maMinor, int maPatch) {
            this.description = description;
            this.mysql = new int[] {myMajor, myMinor, myPatch};
            this.mariaDb = new int[] {maMajor, maMinor, maPatch};
        }

        public String description() {
            return description;
        }

        /** The first release that has the feature, e.g. {@code MySQL 8.0.16}. */
        public String since(boolean onMariaDb) {
            int[] v = onMariaDb ? mariaDb : mysql;
            return (onMariaDb ? "MariaDB " : "MySQL ") + v[0] + "." + v[1] + "." + v[2];
        }
    }

    /** Does this server have {@code feature}? */
    public boolean has(Feature feature) {
        int[] v = mariaDb ? feature.mariaDb : feature.mysql;
        return atLeast(v[0], v[1], v[2]);
    }

    /** The features Copydesk needs that this server lacks, oldest requirement first. */
    public java.util.List<Feature> missingFeatures() {
        return java.util.Arrays.stream(Feature.values()).filter(f -> !has(f))
                .sorted((a, b) -> compare(mariaDb ? a.mariaDb : a.mysql, mariaDb ? b.mariaDb : b.mysql)).toList();
    }

    /**
     * Can this server run Copydesk? It needs DATETIME(6), enforced CHECK constraints (MySQL
     * 8.0.16+) and, on MariaDB, 10.6+: jOOQ's MariaDB dialect writes {@code OFFSET … FETCH}, which
     * MariaDB parses from 10.6, the same release that brought SKIP LOCKED. Older servers are
     * refused with a clear message rather than failing later on a claim.
     */
    public boolean supportsSchema() {
        return missingFeatures().isEmpty();
    }

    /**
     * Why Copydesk refuses this server, naming the exact minimum version and each missing feature
     * with the release that brought it; empty when the server is new enough.
     */
    public java.util.Optional<String> refusal() {
        java.util.List<Feature> missing = missingFeatures();
        if (missing.isEmpty()) {
            return java.util.Optional.empty();
        }
        StringBuilder why = new StringBuilder();
        for (Feature f : missing) {
            why.append(why.length() == 0 ? "" : "; ").append(f.description()).append(" arrived in ").append(f.since(mariaDb));
        }
        return java.util.Optional.of("This database server is " + product() + ", which is too old for Copydesk: it needs "
                + minimumVersion() + " or newer. Missing: " + why + ". (Copydesk runs on " + minimumSupported() + " or newer.)");
    }

    /** The oldest release of this server's kind that Copydesk runs on, e.g. {@code MariaDB 10.6.0}. */
    public String minimumVersion() {
        Feature newest = null;
        for (Feature f : Feature.values()) {
            int[] v = mariaDb ? f.mariaDb : f.mysql;
            if (newest == null || compare(v, mariaDb ? newest.mariaDb : newest.mysql) > 0) {
                newest = f;
            }
        }
        return newest.since(mariaDb);
    }

    private static int compare(int[] a, int[] b) {
        for (int i = 0; i < 3; i++) {
            if (a[i] != b[i]) {
                return Integer.compare(a[i], b[i]);
            }
        }
        return 0;
    }

    public String minimumSupported() {
        return "MySQL 8.0.16 or MariaDB 10.6";
    }

    public String product() {
        return (mariaDb ? "MariaDB " : "MySQL ") + major + "." + minor + "." + patch + (galera ? " (Galera cluster node)" : "");
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
