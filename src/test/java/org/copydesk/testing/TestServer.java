package org.copydesk.testing;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import org.copydesk.db.DataSources;
import org.copydesk.db.EmbeddedServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.MySQLContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * The one database server a test run uses, chosen once: {@code COPYDESK_TEST_DB_URL} if set (a
 * server URL whose account may create databases; {@code COPYDESK_TEST_DB_USER},
 * {@code COPYDESK_TEST_DB_PASSWORD}), else a server in Testcontainers when Docker is available
 * (the image from {@code -Dcopydesk.test.image} or {@code COPYDESK_TEST_IMAGE}, default
 * {@value #DEFAULT_IMAGE}; an image named explicitly fails the run when Docker is missing instead of
 * falling back), else the embedded MariaDB. Each test class gets a fresh database on it.
 */
public final class TestServer {

    private static final Logger log = LoggerFactory.getLogger(TestServer.class);

    /** The Testcontainers image when none is named: MySQL's LTS release. */
    public static final String DEFAULT_IMAGE = "mysql:8.4";

    /** How tests reach the server: base URL without a database, and an account that may create databases. */
    public record Endpoint(String kind, String host, int port, String user, String password, String extraUrlParameters) {

        public String url(String database) {
            return "jdbc:mysql://" + host + ":" + port + "/" + database
                    + "?createDatabaseIfNotExist=true" + (extraUrlParameters.isEmpty() ? "" : "&" + extraUrlParameters);
        }

        /**
         * A URL for an account that may not create databases (a signed-in editor, the app under
         * test), with this server's connection parameters (on MySQL 8 an account with
         * caching_sha2_password signs in over a connection without TLS only with
         * {@code allowPublicKeyRetrieval=true}) and the session collation the product's own
         * connections have ({@link DataSources#SESSION_COLLATION}).
         */
        public String accountUrl(String database) {
            return accountUrl(host, port, database);
        }

        /** As {@link #accountUrl(String)}, through another host and port (a {@code TcpProxy} in front of the server). */
        public String accountUrl(String viaHost, int viaPort, String database) {
            return "jdbc:mysql://" + viaHost + ":" + viaPort + "/" + database
                    + "?" + (extraUrlParameters.isEmpty() ? "sslMode=DISABLED" : extraUrlParameters)
                    + "&sessionVariables=" + URLEncoder.encode(DataSources.SESSION_COLLATION, StandardCharsets.UTF_8);
        }

        public Connection adminConnection() throws SQLException {
            Properties p = new Properties();
            p.setProperty("user", user);
            p.setProperty("password", password);
            p.setProperty("connectionTimeZone", "UTC");
            p.setProperty("forceConnectionTimeZoneToSession", "true");
            p.setProperty("preserveInstants", "false");
            p.setProperty("allowMultiQueries", "false");
            // the session collation the product's own connections have (see DataSources)
            p.setProperty("sessionVariables", DataSources.SESSION_COLLATION);
            if (!extraUrlParameters.isEmpty()) {
                for (String kv : extraUrlParameters.split("&")) {
                    String[] parts = kv.split("=", 2);
                    p.setProperty(parts[0], parts.length > 1 ? parts[1] : "");
                }
            }
            return DriverManager.getConnection("jdbc:mysql://" + host + ":" + port + "/", p);
        }

        public void execute(String sql) {
            try (Connection c = adminConnection(); Statement s = c.createStatement()) {
                s.execute(sql);
            } catch (SQLException e) {
                throw new IllegalStateException(sql + ": " + e.getMessage(), e);
            }
        }
    }

    private static Endpoint endpoint;
    private static EmbeddedServer embedded;

    private TestServer() {
    }

    public static synchronized Endpoint endpoint() {
        if (endpoint == null) {
            endpoint = choose();
        }
        return endpoint;
    }

    /** The embedded server, when that is what this run uses. */
    public static synchronized EmbeddedServer embedded() {
        endpoint();
        return embedded;
    }

    private static Endpoint choose() {
        String url = System.getenv("COPYDESK_TEST_DB_URL");
        if (url != null && !url.isBlank()) {
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("jdbc:mysql://([^:/]+)(?::(\\d+))?.*").matcher(url);
            if (!m.matches()) {
                throw new IllegalStateException("COPYDESK_TEST_DB_URL must look like jdbc:mysql://host:port/");
            }
            log.info("Tests use the server at {}", url);
            return new Endpoint("url", m.group(1), m.group(2) == null ? 3306 : Integer.parseInt(m.group(2)),
                    envOr("COPYDESK_TEST_DB_USER", "root"), envOr("COPYDESK_TEST_DB_PASSWORD", ""),
                    envOr("COPYDESK_TEST_DB_PARAMS", "sslMode=DISABLED&allowPublicKeyRetrieval=true"));
        }
        String image = imageName();
        if (image != null || !"false".equals(System.getenv("COPYDESK_TEST_DOCKER")) && dockerAvailable()) {
            return startContainer(image == null ? DEFAULT_IMAGE : image);
        }
        Path folder = Path.of(System.getProperty("copydesk.test.workdir", "target/test-db")).resolve("server");
        java.util.Optional<Path> inMemory = DataInMemory.link(folder);
        embedded = EmbeddedServer.startOrAttach(new EmbeddedServer.Options(folder, "127.0.0.1", 0,
                EmbeddedServer.Mode.DESKTOP, java.time.Duration.ofSeconds(90)));
        EmbeddedServer server = embedded;
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            inMemory.ifPresent(memory -> DataInMemory.drop(folder, memory));
        }, "stop-test-db"));
        log.info("Tests use the embedded MariaDB on port {}", server.port());
        return new Endpoint("embedded", "127.0.0.1", server.port(), EmbeddedServer.ROOT_USER, new String(server.rootPassword()),
                "sslMode=DISABLED");
    }

    /** The image named by {@code -Dcopydesk.test.image} or {@code COPYDESK_TEST_IMAGE}, or null. */
    static String imageName() {
        String property = System.getProperty("copydesk.test.image");
        if (property != null && !property.isBlank()) {
            return property.trim();
        }
        String env = System.getenv("COPYDESK_TEST_IMAGE");
        return env == null || env.isBlank() ? null : env.trim();
    }

    /**
     * MySQL or MariaDB in Docker. {@link MySQLContainer} runs both: MariaDB's images read the same
     * {@code MYSQL_*} variables and options. Its default my.cnf is sized for tiny tests (16 MB buffer
     * pool, 1 MB packets), so the options that matter here are given on the command line.
     */
    private static Endpoint startContainer(String image) {
        if (!dockerAvailable()) {
            throw new IllegalStateException("The tests were asked to run on " + image
                    + " (copydesk.test.image / COPYDESK_TEST_IMAGE), but Docker is not available here.");
        }
        DockerImageName name = DockerImageName.parse(image).asCompatibleSubstituteFor("mysql");
        MySQLContainer<?> server = new MySQLContainer<>(name).withUsername("root").withPassword("test")
                .withCommand("--innodb-lock-wait-timeout=10", "--max-connections=500", "--innodb-buffer-pool-size=256M",
                        "--max-allowed-packet=64M", "--character-set-server=utf8mb4");
        server.start();
        log.info("Tests use {} in Testcontainers on port {}", image, server.getMappedPort(3306));
        return new Endpoint("testcontainers", server.getHost(), server.getMappedPort(3306), "root", "test",
                "sslMode=DISABLED&allowPublicKeyRetrieval=true");
    }

    private static boolean dockerAvailable() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (Throwable t) {
            return false;
        }
    }

    private static String envOr(String name, String fallback) {
        String v = System.getenv(name);
        return v == null ? fallback : v;
    }
}
