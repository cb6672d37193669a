package org.copydesk.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.copydesk.testing.TestServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What a person sees when the database cannot be used as configured, on the run's real server: an
 * account that may not migrate, a wrong password, a port nobody listens on.
 */
class DatabaseSetupProblemsTest {

    private static final String SUFFIX = Long.toString(ProcessHandle.current().pid());
    /** A fresh, empty database: the limited account would have to create the schema. */
    private static final String EMPTY_DB = "t_limited_empty_" + SUFFIX;
    /** A database an admin has already migrated. */
    private static final String MIGRATED_DB = "t_limited_migrated_" + SUFFIX;
    private static final String LIMITED_USER = "cd_limited_" + SUFFIX;
    private static final String LIMITED_PASSWORD = "Limited-Pw-" + SUFFIX;

    private static TestServer.Endpoint endpoint;

    @BeforeAll
    static void createLimitedAccount() {
        endpoint = TestServer.endpoint();
        dropAll();
        endpoint.execute("CREATE DATABASE `" + EMPTY_DB + "`");
        endpoint.execute("CREATE DATABASE `" + MIGRATED_DB + "`");
        endpoint.execute("CREATE USER '" + LIMITED_USER + "'@'%' IDENTIFIED BY '" + LIMITED_PASSWORD + "'");
        // What an editor's account typically gets: data, no DDL.
        for (String db : new String[] {EMPTY_DB, MIGRATED_DB}) {
            endpoint.execute("GRANT SELECT, INSERT, UPDATE, DELETE ON `" + db + "`.* TO '" + LIMITED_USER + "'@'%'");
        }
        try (Database admin = Database.open(endpoint.url(MIGRATED_DB), endpoint.user(), endpoint.password().toCharArray(),
                null, DataSources.PoolSize.of(1), Database.SchemaAction.MIGRATE, null)) {
            // this database's tables only: the whole server's meta data races with other test classes dropping theirs
            assertThat(admin.dsl().fetchOne("select count(*) from information_schema.tables where table_schema = ?", MIGRATED_DB)
                    .get(0, Integer.class)).isPositive();
        }
    }

    @AfterAll
    static void dropAll() {
        endpoint.execute("DROP USER IF EXISTS '" + LIMITED_USER + "'@'%'");
        endpoint.execute("DROP DATABASE IF EXISTS `" + EMPTY_DB + "`");
        endpoint.execute("DROP DATABASE IF EXISTS `" + MIGRATED_DB + "`");
    }

    /**
     * MySQL 8 accounts use caching_sha2_password: a first sign-in without TLS needs the server's RSA
     * key, which Connector/J fetches only when allowed. Copydesk does not allow it (a key from
     * anyone in between would be trusted) and says what to do instead. MariaDB signs in as before.
     */
    @Test
    void aPasswordThatWouldTravelUnencryptedIsExplainedNotCalledUnreachable() {
        String user = "cd_fresh_" + SUFFIX;
        endpoint.execute("DROP USER IF EXISTS '" + user + "'@'%'");
        endpoint.execute("CREATE USER '" + user + "'@'%' IDENTIFIED BY 'Fresh-Pw-1'");
        endpoint.execute("GRANT SELECT ON `" + MIGRATED_DB + "`.* TO '" + user + "'@'%'");
        try {
            String url = "jdbc:mysql://" + endpoint.host() + ":" + endpoint.port() + "/" + MIGRATED_DB + "?sslMode=DISABLED";
            try (Database db = Database.open(url, user, "Fresh-Pw-1".toCharArray(), null, DataSources.PoolSize.of(1),
                    Database.SchemaAction.NONE, null)) {
                assertThat(db.capabilities().mariaDb()).as("only MariaDB signs in here without TLS").isTrue();
            } catch (DatabaseSetupException e) {
                assertThat(e.getMessage()).contains("wants the password of '" + user + "' sent encrypted",
                        "--ssl-mode PREFERRED (the default) or REQUIRED").doesNotContain("Cannot reach");
            }
        } finally {
            endpoint.execute("DROP USER IF EXISTS '" + user + "'@'%'");
        }
    }

    private static Database openAsLimited(String db, String password) {
        return Database.open(endpoint.url(db), LIMITED_USER, password.toCharArray(), null, DataSources.PoolSize.of(1),
                Database.SchemaAction.MIGRATE_OR_VALIDATE, null);
    }

    @Test
    void anAccountThatMayNotMigrateIsToldToAskAnAdmin() throws SQLException {
        assertThatThrownBy(() -> openAsLimited(EMPTY_DB, LIMITED_PASSWORD))
                .isInstanceOf(DatabaseSetupException.class)
                .hasMessageContaining("your account may not update it")
                .hasMessageContaining("Ask an admin to run: copydesk db migrate")
                .hasMessageContaining("at version none");

        assertThat(tableCount(EMPTY_DB)).as("nothing half-created").isZero();
    }

    /**
     * A person of the newsroom signing in after the program was upgraded and before the schema was:
     * told at once, without an attempt that fails on a right they lack (which filled their log with
     * Flyway's "Migration … failed! Please restore backups and roll back database and code!").
     */
    @Test
    void aPersonSigningInToASchemaBehindIsToldWithoutAnAttempt() throws SQLException {
        String behind = "t_limited_behind_" + SUFFIX;
        endpoint.execute("DROP DATABASE IF EXISTS `" + behind + "`");
        endpoint.execute("CREATE DATABASE `" + behind + "`");
        endpoint.execute("GRANT SELECT, INSERT, UPDATE, DELETE ON `" + behind + "`.* TO '" + LIMITED_USER + "'@'%'");
        ch.qos.logback.classic.Logger rootLog = (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger("ROOT");
        ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> logged =
                new ch.qos.logback.core.read.ListAppender<>();
        try (Database admin = Database.open(endpoint.url(behind), endpoint.user(), endpoint.password().toCharArray(), null,
                DataSources.PoolSize.of(1), Database.SchemaAction.NONE, null)) {
            new Migrations(admin.dataSource()).migrateTo("20");
            admin.dsl().execute("insert into editor (id, display_name, role, capacity) values (?, 'Limited', 'editor', 5)", LIMITED_USER);
            logged.start();
            rootLog.addAppender(logged);
            assertThatThrownBy(() -> openAsLimited(behind, LIMITED_PASSWORD))
                    .isInstanceOf(DatabaseSetupException.class)
                    .hasMessageContaining("The database schema is out of date (at version 20")
                    .hasMessageContaining("Ask an admin to run: copydesk db migrate")
                    .hasNoCause();
            assertThat(logged.list).as("no migration attempted, nothing alarming logged")
                    .noneMatch(e -> e.getLevel().isGreaterOrEqual(ch.qos.logback.classic.Level.WARN));
        } finally {
            rootLog.detachAppender(logged);
            endpoint.execute("DROP DATABASE IF EXISTS `" + behind + "`");
        }
    }

    /**
     * A database a DBA made in latin1 (the server's default) for an account that may not change its
     * character set: the migration is refused before it creates anything, in one line naming the
     * statement for the DBA.
     */
    @Test
    void aLatin1DatabaseTheAccountMayNotConvertIsRefusedBeforeAnythingChanges() throws SQLException {
        String latin1 = "t_limited_latin1_" + SUFFIX;
        endpoint.execute("DROP DATABASE IF EXISTS `" + latin1 + "`");
        endpoint.execute("CREATE DATABASE `" + latin1 + "` CHARACTER SET latin1");
        endpoint.execute("GRANT SELECT, INSERT, UPDATE, DELETE, CREATE, DROP, INDEX, EXECUTE"
                + " ON `" + latin1 + "`.* TO '" + LIMITED_USER + "'@'%'");
        try {
            assertThatThrownBy(() -> Database.open(endpoint.url(latin1), LIMITED_USER, LIMITED_PASSWORD.toCharArray(), null,
                    DataSources.PoolSize.of(1), Database.SchemaAction.MIGRATE, null).close())
                    .isInstanceOf(DatabaseSetupException.class)
                    .hasMessageContaining("stores text as latin1")
                    .hasMessageContaining("Nothing was changed. Ask the DBA to run: ALTER DATABASE `" + latin1 + "` CHARACTER SET utf8mb4;")
                    .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
            assertThat(tableCount(latin1)).as("nothing created").isZero();
        } finally {
            endpoint.execute("DROP DATABASE IF EXISTS `" + latin1 + "`");
        }
    }

    @Test
    void anAccountThatMayNotMigrateStillOpensAnUpToDateSchema() {
        try (Database db = openAsLimited(MIGRATED_DB, LIMITED_PASSWORD)) {
            assertThat(new Migrations(db.dataSource()).currentVersion()).isEqualTo(org.copydesk.testing.SchemaVersions.LATEST);
            assertThat(db.userName()).isEqualTo(LIMITED_USER);
            assertThat(db.dsl().fetchCount(org.copydesk.db.schema.Tables.ARTICLE)).isZero();
        }
    }

    @Test
    void aWrongPasswordGivesOnePlainLine() {
        assertThatThrownBy(() -> openAsLimited(MIGRATED_DB, "not-the-password"))
                .isInstanceOf(DatabaseSetupException.class)
                .hasMessageContaining("refused the user name or password for '" + LIMITED_USER + "'")
                .hasMessageNotContaining("not-the-password")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }

    @Test
    void aPortNobodyListensOnGivesCannotReach() throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }
        String url = "jdbc:mysql://127.0.0.1:" + closedPort + "/copydesk?sslMode=DISABLED&password=url-secret";

        assertThatThrownBy(() -> Database.open(url, "someone", new char[0], null, DataSources.PoolSize.of(1),
                Database.SchemaAction.MIGRATE_OR_VALIDATE, null))
                .isInstanceOf(DatabaseSetupException.class)
                .hasMessageStartingWith("Cannot reach the database at jdbc:mysql://127.0.0.1:" + closedPort)
                .hasMessageNotContaining("url-secret")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }

    private static int tableCount(String db) throws SQLException {
        try (Connection c = endpoint.adminConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = '" + db + "'")) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
