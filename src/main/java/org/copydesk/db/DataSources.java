package org.copydesk.db;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Locale;
import javax.sql.DataSource;

/**
 * Connection pools, sized for a desktop client or for a server-side daemon.
 *
 * <p>Connector/J options, each on purpose:
 * <ul>
 *   <li>{@code connectionTimeZone=UTC}, {@code forceConnectionTimeZoneToSession=true}: the session's
 *       time zone is UTC whatever the server's or the PC's, so {@code NOW(6)} and every DATETIME
 *       are UTC; {@code preserveInstants=false} stops the driver from shifting DATETIME values
 *       into the PC's time zone, so a {@code LocalDateTime} read is the server's UTC wall clock
 *       (tested with client and server in different zones);</li>
 *   <li>{@code useServerPrepStmts}, {@code cachePrepStmts}: the claim and renew statements run
 *       constantly; the server parses them once per connection;</li>
 *   <li>{@code rewriteBatchedStatements}: imports send multi-row inserts;</li>
 *   <li>{@code connectTimeout=5s}, {@code socketTimeout=60s}, {@code tcpKeepAlive}: a server that
 *       went away is noticed and reported instead of hanging a background task for ever;</li>
 *   <li>{@code useLocalSessionState}, {@code cacheServerConfiguration}: fewer round trips per
 *       transaction;</li>
 *   <li>{@code connectionAttributes=program_name:copydesk}: supervisors can tell Copydesk sessions
 *       apart in the server's process list;</li>
 *   <li>{@link #SESSION_VARIABLES}: the SQL mode is Copydesk's whatever the server's, autocommit
 *       is on whatever {@code init_connect} did, and {@link #SESSION_COLLATION}: the session's collation is the database's own, so text the
 *       session makes (literals, casts to text) and the routines, triggers and views created through
 *       it (each keeps the session's collation for its body) have the collation of the tables'
 *       columns, and a comparison with a column never fails with "Illegal mix of collations".
 *       Left alone, Connector/J picks the collation from the server's version: {@code
 *       utf8mb4_0900_ai_ci} (MySQL 8's default, which MariaDB 11.4.5 and later accept as an alias of
 *       {@code utf8mb4_uca1400_nopad_ai_ci}) for any server it reads as 8.0.1 or newer, MariaDB 11.x
 *       included, and {@code utf8mb4_general_ci} for MariaDB 10.x (which announces itself as
 *       {@code 5.5.5-10.x}), whatever collation the database was created with;</li>
 *   <li>a URL naming several servers ({@code jdbc:mysql://db1:3306,db2:3306,db3:3306/copydesk}, the
 *       nodes of a cluster) gets Connector/J's failover: connections go to the first server that
 *       answers, in the order given, and a connection lost with its server is replaced by one to the
 *       next ({@link #hosts}). {@code failOverReadOnly=false}: the driver would otherwise make
 *       connections to any but the first server read-only, and every Galera node takes writes;
 *       {@code retriesAllDown=2}: with every server down, fail in seconds rather than the driver's
 *       120 rounds.</li>
 * </ul>
 * {@code sslMode} comes from the settings; without one, a server over the network is reached with
 * {@code VERIFY_IDENTITY} ({@link #defaultSslMode}); see the README.
 */
public final class DataSources {

    /**
     * What the pool is for: an editor's desktop or a daemon (release service, import, benchmarks).
     *
     * @param idleTimeout how long a connection beyond {@code minimumIdle} may sit unused before the
     *                    pool closes it (checked every 30 s)
     */
    public record PoolSize(int maximum, int minimumIdle, Duration idleTimeout) {
        /** HikariCP's own: connections opened for a burst stay for 10 minutes. */
        public static final Duration DAEMON_IDLE_TIMEOUT = Duration.ofMinutes(10);
        /**
         * A desktop's: a connection opened because two things overlapped (a list watch and a save)
         * goes again within a minute, so a signed-in window that sits idle holds one connection, and a
         * server's connections go to the people working, not to the windows left open.
         */
        public static final Duration DESKTOP_IDLE_TIMEOUT = Duration.ofSeconds(30);

        public PoolSize(int maximum, int minimumIdle) {
            this(maximum, minimumIdle, DAEMON_IDLE_TIMEOUT);
        }

        /** UI actions, heartbeat, draft autosave and the release service, with one to spare. */
        public static PoolSize desktop() {
            return new PoolSize(5, 1, DESKTOP_IDLE_TIMEOUT);
        }

        public static PoolSize of(int maximum) {
            return new PoolSize(maximum, Math.min(maximum, 2));
        }
    }

    /**
     * Connector/J's {@code sessionVariables} value that gives every session the default collation of
     * the database it opens ({@code @@collation_database}; the server's default without one). The
     * schema declares no collation of its own, so its tables take the database's; the driver sets
     * this on every connection it opens, including those it opens on the next server of a cluster.
     */
    public static final String SESSION_COLLATION = "collation_connection=@@collation_database";

    /**
     * The SQL mode of every Copydesk session, whatever the server's default: strict (a value that
     * does not fit is refused, not cut), and none of the modes that change what SQL means
     * ({@code ANSI_QUOTES}, {@code NO_BACKSLASH_ESCAPES}, {@code PAD_CHAR_TO_FULL_LENGTH}, {@code
     * ONLY_FULL_GROUP_BY}, which MariaDB applies more narrowly than MySQL). A routine, trigger or
     * view keeps the mode of the session that created it, so the migration's session gives them
     * this one too. Every name here means the same on MySQL 8 and MariaDB 10.6+.
     */
    public static final String SESSION_SQL_MODE = "STRICT_TRANS_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,"
            + "NO_ENGINE_SUBSTITUTION";

    /**
     * Every session's settings, set by Connector/J on each connection it opens (after the server's
     * {@code init_connect}, which a DBA may have given {@code SET autocommit=0}): the collation
     * ({@link #SESSION_COLLATION}), the SQL mode ({@link #SESSION_SQL_MODE}) and autocommit on, so
     * that a plain read never leaves a transaction open.
     */
    public static final String SESSION_VARIABLES = SESSION_COLLATION + ",autocommit=1,sql_mode='" + SESSION_SQL_MODE + "'";

    private DataSources() {
    }

    public static HikariDataSource create(String url, String user, char[] password, String sslMode, PoolSize size, String poolName) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        if (user != null) {
            config.setUsername(user);
        }
        if (password != null && password.length > 0) {
            config.setPassword(new String(password));
        }
        config.setPoolName(poolName);
        config.setMaximumPoolSize(size.maximum());
        config.setMinimumIdle(size.minimumIdle());
        config.setIdleTimeout(size.idleTimeout().toMillis());
        config.setConnectionTimeout(5_000);
        config.setValidationTimeout(2_000);
        config.setKeepaliveTime(120_000);
        config.setMaxLifetime(1_800_000);
        // Lease claims and decisions choose their own isolation; everything else reads committed data.
        config.setTransactionIsolation("TRANSACTION_READ_COMMITTED");
        config.setAutoCommit(true);
        // Fail fast with a clear message rather than retrying a wrong password.
        config.setInitializationFailTimeout(1);
        config.addDataSourceProperty("connectionTimeZone", "UTC");
        config.addDataSourceProperty("forceConnectionTimeZoneToSession", "true");
        config.addDataSourceProperty("preserveInstants", "false");
        config.addDataSourceProperty("useServerPrepStmts", "true");
        config.addDataSourceProperty("cachePrepStmts", "true");
        config.addDataSourceProperty("prepStmtCacheSize", "250");
        config.addDataSourceProperty("prepStmtCacheSqlLimit", "4096");
        config.addDataSourceProperty("rewriteBatchedStatements", "true");
        config.addDataSourceProperty("connectTimeout", "5000");
        config.addDataSourceProperty("socketTimeout", "60000");
        config.addDataSourceProperty("tcpKeepAlive", "true");
        config.addDataSourceProperty("useLocalSessionState", "true");
        config.addDataSourceProperty("cacheServerConfiguration", "true");
        config.addDataSourceProperty("characterEncoding", "UTF-8");
        config.addDataSourceProperty("connectionAttributes", "program_name:copydesk");
        config.addDataSourceProperty("sessionVariables", SESSION_VARIABLES);
        if (hosts(url).size() > 1) {
            config.addDataSourceProperty("failOverReadOnly", "false");
            config.addDataSourceProperty("retriesAllDown", "2");
        }
        String mode = sslMode != null && !sslMode.isBlank() ? sslMode.trim().toUpperCase(Locale.ROOT) : defaultSslMode(url);
        if (mode != null) {
            config.addDataSourceProperty("sslMode", mode);
        }
        try {
            return new HikariDataSource(config);
        } catch (RuntimeException e) {
            throw ConnectionProblems.explain(url, user, e);
        }
    }

    /**
     * The TLS mode when none is configured: a server reached over the network is encrypted and
     * verified ({@code VERIFY_IDENTITY}: the JVM's trust store, or the certificate the URL pins); a
     * loopback one, or a URL that says itself, keeps the driver's choice (null).
     */
    static String defaultSslMode(String url) {
        String lower = url.toLowerCase(Locale.ROOT);
        if (lower.contains("sslmode=") || lower.contains("usessl=") || lower.contains("requiressl=")) {
            return null;
        }
        java.util.List<String> hosts = hosts(url);
        if (hosts.isEmpty()) {
            return null;
        }
        return hosts.stream().allMatch(EmbeddedServer::isLoopback) ? null : "VERIFY_IDENTITY";
    }

    /**
     * The servers a {@code jdbc:mysql://} URL names, in order, without ports or brackets:
     * {@code jdbc:mysql://db1:3306,db2:3306/copydesk} gives {@code [db1, db2]}; empty for a URL of
     * another form.
     */
    public static java.util.List<String> hosts(String url) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("^jdbc:mysql:(?:[a-z]+:)?//([^/?]*)")
                .matcher(url.toLowerCase(Locale.ROOT));
        if (!m.find() || m.group(1).isBlank()) {
            return java.util.List.of();
        }
        java.util.List<String> hosts = new java.util.ArrayList<>();
        for (String hostPort : m.group(1).split(",")) {
            String host = hostPort.strip();
            if (host.startsWith("[")) {
                host = host.substring(1, Math.max(1, host.indexOf(']')));
            } else if (host.contains(":")) {
                host = host.substring(0, host.indexOf(':'));
            }
            if (!host.isEmpty()) {
                hosts.add(host);
            }
        }
        return hosts;
    }

    /**
     * The data source the rest of Copydesk uses on this server: the pool itself, or, where
     * Connector/J would cut fractions of a second off bound date-times (MariaDB 10.x, see
     * {@link ServerCapabilities#driverDropsFractionalSeconds()}), the pool with date-times sent as text.
     */
    public static DataSource forServer(DataSource pool, ServerCapabilities capabilities) {
        return capabilities.driverDropsFractionalSeconds() ? DateTimesAsText.wrap(pool) : pool;
    }

    /** A quick check that a pool's connections work; returns the server's capabilities. */
    public static ServerCapabilities probe(javax.sql.DataSource dataSource) {
        try (Connection c = dataSource.getConnection()) {
            return ServerCapabilities.detect(c);
        } catch (SQLException e) {
            throw ConnectionProblems.explain(urlOf(dataSource), null, e);
        }
    }

    /** The URL of the pool behind {@code dataSource}, for messages; null when it is not one of ours. */
    private static String urlOf(javax.sql.DataSource dataSource) {
        try {
            return dataSource.isWrapperFor(HikariDataSource.class) ? dataSource.unwrap(HikariDataSource.class).getJdbcUrl() : null;
        } catch (SQLException e) {
            return null;
        }
    }
}
