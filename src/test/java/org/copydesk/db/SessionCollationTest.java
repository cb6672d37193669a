package org.copydesk.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.LEASE_EVENT;

import com.zaxxer.hikari.HikariDataSource;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.assertj.core.api.SoftAssertions;
import org.copydesk.review.imports.ArticleImporter;
import org.copydesk.review.imports.ImportListener;
import org.copydesk.review.imports.ImportReport;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.TestDatabase;
import org.copydesk.testing.TestServer;
import org.jooq.DSLContext;
import org.jooq.Record;
import org.jooq.Results;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One collation for every comparison Copydesk makes: the tables' columns, the bodies of its
 * routines, triggers and views (each keeps the collation of the session that created it), the
 * sessions Copydesk opens, and the database's default all agree, so text a session makes (a cast,
 * a literal) compares with a column without "Illegal mix of collations". Runs on the run's server
 * (every pass of {@code .ci/run}). Left alone, Connector/J picks the session's collation from the
 * server's version, not from the database ({@link DataSources#SESSION_COLLATION}): on the embedded
 * MariaDB 11.4 the first test fails without the pin, and the second one, which creates its database
 * with a collation the driver would not pick on this server, fails without it on every server.
 */
@ExtendWith(DatabaseExtension.class)
class SessionCollationTest {

    /** A binary collation wins a comparison with any other of its character set, so it mixes with none. */
    private static final String BINARY = "utf8mb4_bin";

    @Test
    void aMigratedDatabaseItsRoutinesAndCopydesksSessionsShareOneCollation(TestDatabase db) {
        assertOneCollation(db.database(), db.name());
    }

    /**
     * Copydesk's sessions, and so every routine and trigger the migration created (each keeps the
     * SQL mode of the session that created it), have Copydesk's SQL mode and autocommit, whatever
     * the server's defaults: MariaDB's and MySQL's defaults differ from it (NO_AUTO_CREATE_USER,
     * ONLY_FULL_GROUP_BY), so without the pin this fails on every CI server.
     */
    @Test
    void copydesksSessionsAndItsRoutinesHaveItsOwnSqlModeWhateverTheServersDefault(TestDatabase db) {
        DSLContext dsl = db.dsl();
        Set<String> mode = Set.of(DataSources.SESSION_SQL_MODE.split(","));
        Record session = dsl.fetchOne("SELECT @@SESSION.sql_mode, @@SESSION.autocommit");
        assertThat(Set.of(session.get(0, String.class).split(","))).as("the session's SQL mode").isEqualTo(mode);
        assertThat(session.get(1, Integer.class)).as("autocommit").isEqualTo(1);
        List<String> others = dsl.fetch("SELECT CONCAT(ROUTINE_NAME, ': ', SQL_MODE) FROM information_schema.ROUTINES"
                + " WHERE ROUTINE_SCHEMA = ? UNION ALL SELECT CONCAT(TRIGGER_NAME, ': ', SQL_MODE) FROM information_schema.TRIGGERS"
                + " WHERE TRIGGER_SCHEMA = ?", db.name(), db.name()).getValues(0, String.class);
        assertThat(others).as("routines and triggers").isNotEmpty()
                .allSatisfy(r -> assertThat(Set.of(r.substring(r.indexOf(": ") + 2).split(","))).as(r).isEqualTo(mode));
    }

    @Test
    void aDatabaseCreatedWithAnotherCollationThanTheDriversIsMigratedAndComparedInItsOwn() throws SQLException {
        TestServer.Endpoint server = TestServer.endpoint();
        String driversChoice = collationConnectorJPicksAlone(server);
        String other = Stream.of("utf8mb4_unicode_ci", "utf8mb4_general_ci").filter(c -> !c.equals(driversChoice))
                .findFirst().orElseThrow();
        String name = ("t_collation_" + ProcessHandle.current().pid()).toLowerCase(java.util.Locale.ROOT);
        server.execute("DROP DATABASE IF EXISTS `" + name + "`");
        server.execute("CREATE DATABASE `" + name + "` CHARACTER SET utf8mb4 COLLATE " + other);
        try (Database database = Database.open(server.url(name), server.user(), server.password().toCharArray(), null,
                DataSources.PoolSize.of(2), Database.SchemaAction.MIGRATE, null)) {
            assertThat(databaseCollation(database.dsl(), name)).as("the database as created").isEqualTo(other);
            assertOneCollation(database, name);
        } finally {
            server.execute("DROP DATABASE IF EXISTS `" + name + "`");
        }
    }

    /**
     * How a DBA may have made the database: a plain {@code CREATE DATABASE} on a server whose default
     * is latin1 (MariaDB's compiled-in default before 11.6), or a character set of their choosing.
     * Before Copydesk converted such a database, its tables and its routines' parameters took that
     * character set, a title in Greek or with an emoji did not fit, and every decision failed
     * ("COLLATION 'utf8mb4_bin' is not valid for CHARACTER SET 'latin1'").
     */
    static Stream<Arguments> databasesAsADbaMadeThem() {
        return Stream.of(
                Arguments.of("plain, on a server whose default is latin1", "latin1", ""),
                Arguments.of("latin1, binary", null, "CHARACTER SET latin1 COLLATE latin1_bin"),
                Arguments.of("utf8mb3", null, "CHARACTER SET utf8mb3 COLLATE utf8mb3_general_ci"),
                Arguments.of("utf8mb4, binary", null, "CHARACTER SET utf8mb4 COLLATE utf8mb4_bin"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("databasesAsADbaMadeThem")
    void aDatabaseMadeWithOtherDefaultsIsMigratedInUtf8mb4AndHoldsAnyText(String label, String serverDefault, String clause)
            throws SQLException {
        TestServer.Endpoint server = TestServer.endpoint();
        String name = ("t_made_" + label.replaceAll("\\W+", "_") + ProcessHandle.current().pid()).toLowerCase(java.util.Locale.ROOT);
        server.execute("DROP DATABASE IF EXISTS `" + name + "`");
        try (Connection admin = server.adminConnection(); Statement s = admin.createStatement()) {
            if (serverDefault != null) { // what CREATE DATABASE takes when it names nothing
                s.execute("SET SESSION character_set_server = " + serverDefault);
            }
            s.execute("CREATE DATABASE `" + name + "` " + clause);
        }
        try (Database database = Database.open(server.url(name), server.user(), server.password().toCharArray(), null,
                DataSources.PoolSize.of(2), Database.SchemaAction.MIGRATE, null)) {
            assertAnyTextIsImportedAndDecided(database.dsl());
            assertThat(databaseCollation(database.dsl(), name)).as("the database's default after migrating").startsWith("utf8mb4_");
            assertOneCollation(database, name);
        } finally {
            server.execute("DROP DATABASE IF EXISTS `" + name + "`");
        }
    }

    /**
     * A pool may be opening a session as the conversion changes the database's default; that session
     * keeps the former default, and a table it creates takes it (latin1 beside utf8mb4: the review
     * stages' foreign key was refused, errno 150, in one CI run in many). Here every session the
     * migration gets was opened before the conversion, and none is replaced.
     */
    @Test
    void sessionsOpenedBeforeTheConversionCreateTablesInTheNewDefault() throws SQLException {
        TestServer.Endpoint server = TestServer.endpoint();
        String name = ("t_opened_before_" + ProcessHandle.current().pid()).toLowerCase(java.util.Locale.ROOT);
        server.execute("DROP DATABASE IF EXISTS `" + name + "`");
        server.execute("CREATE DATABASE `" + name + "` CHARACTER SET latin1 COLLATE latin1_bin");
        try (HikariDataSource pool = DataSources.create(server.url(name), server.user(), server.password().toCharArray(), null,
                DataSources.PoolSize.of(6), "opened-before")) {
            new Migrations(new SessionsOpenedBefore(pool, 5)).migrate();
            List<String> notUtf8mb4 = DSL.using(pool, SQLDialect.MARIADB).fetch("SELECT CONCAT(TABLE_NAME, '.', COLUMN_NAME, ' ',"
                    + " CHARACTER_SET_NAME) FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND CHARACTER_SET_NAME <> 'utf8mb4'",
                    name).getValues(0, String.class);
            assertThat(notUtf8mb4).as("text columns not in utf8mb4").isEmpty();
        } finally {
            server.execute("DROP DATABASE IF EXISTS `" + name + "`");
        }
    }

    /** Hands out only sessions it opened when made, each back to it on close: not a pool that replaces them. */
    private static final class SessionsOpenedBefore implements DataSource {
        private final java.util.concurrent.BlockingDeque<Connection> open = new java.util.concurrent.LinkedBlockingDeque<>();

        SessionsOpenedBefore(DataSource pool, int sessions) throws SQLException {
            for (int i = 0; i < sessions; i++) {
                open.add(pool.getConnection());
            }
        }

        @Override
        public Connection getConnection() throws SQLException {
            Connection c = open.poll();
            if (c == null) {
                throw new SQLException("all the sessions opened before are in use");
            }
            return (Connection) java.lang.reflect.Proxy.newProxyInstance(Connection.class.getClassLoader(),
                    new Class<?>[] {Connection.class}, (proxy, method, args) -> {
                        if ("close".equals(method.getName())) {
                            open.add(c);
                            return null;
                        }
                        try {
                            return method.invoke(c, args);
                        } catch (java.lang.reflect.InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });
        }

        @Override
        public Connection getConnection(String user, String password) throws SQLException {
            throw new SQLException("not for other accounts");
        }

        @Override
        public java.io.PrintWriter getLogWriter() {
            return null;
        }

        @Override
        public void setLogWriter(java.io.PrintWriter out) {
        }

        @Override
        public void setLoginTimeout(int seconds) {
        }

        @Override
        public int getLoginTimeout() {
            return 0;
        }

        @Override
        public java.util.logging.Logger getParentLogger() {
            return java.util.logging.Logger.getGlobal();
        }

        @Override
        public <T> T unwrap(Class<T> iface) throws SQLException {
            throw new SQLException("not a wrapper");
        }

        @Override
        public boolean isWrapperFor(Class<?> iface) {
            return false;
        }
    }

    /**
     * A title with curly quotes, Greek and an emoji comes in through the import's operation, an
     * editor claims it and decides it with such a note, and both read back as they were written.
     */
    static void assertAnyTextIsImportedAndDecided(DSLContext dsl) {
        String title = "\u201cQuotes\u201d \u2014 \u0395\u03bb\u03bb\u03b7\u03bd\u03b9\u03ba\u03ac \ud83c\udf0d Caf\u00e9";
        String note = "Approved \ud83d\udc4d \u03a9";
        String editor = "any_text_ann";
        Fixtures.desk(dsl, "news");
        dsl.execute("insert into editor (id, display_name, role, capacity) values (?, ?, 'editor', 3)", editor, "Ann \u00c5 \u03a9");
        dsl.execute("insert into editor_desk (editor_id, desk_id) values (?, 'news')", editor);
        String json = "[{\"external_id\": \"any-text-1\", \"desk\": \"news\", \"title\": \"" + title
                + "\", \"body\": \"" + title + "\", \"priority\": 1}]";
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        ImportReport report = new ArticleImporter(dsl, Clock.systemUTC()).importStream(new ByteArrayInputStream(bytes), "dba.json",
                bytes.length, "sam", ImportListener.NONE);
        assertThat(report.imported()).as("imported: %s", report).isEqualTo(1);

        Long id = dsl.fetchOne("select id from article where external_id = 'any-text-1'").get(0, Long.class);
        Results claim = dsl.fetchMany("call claim_articles(?, null, null, null, null)", editor);
        Record held = claim.get(1).stream().filter(r -> id.equals(r.get("id", Long.class))).findFirst().orElseThrow();
        Results decided = dsl.fetchMany("call decide_article(?, ?, ?, ?, 'approve', ?)", editor, held.get("id", Long.class),
                held.get("lease_token", Long.class), java.util.UUID.randomUUID().toString(), note);
        assertThat(decided.get(0).get(0).get("outcome", String.class)).isEqualTo("recorded");
        assertThat(dsl.fetchValue("select title from article where external_id = 'any-text-1'")).isEqualTo(title);
        assertThat(dsl.fetchValue("select body from article where external_id = 'any-text-1'")).isEqualTo(title);
        assertThat(dsl.fetchValue("select decision_note from article where external_id = 'any-text-1'")).isEqualTo(note);
        assertThat(dsl.fetchValue("select display_name from editor where id = ?", editor)).isEqualTo("Ann \u00c5 \u03a9");
    }

    /** Every disagreement at once (soft assertions): the report shows which of the parts differ. */
    static void assertOneCollation(Database database, String schema) {
        DSLContext dsl = database.dsl();
        String collation = databaseCollation(dsl, schema);
        assertThat(collation).as("the database's default collation").startsWith("utf8mb4_");
        SoftAssertions.assertSoftly(softly -> {
            List<String> columns = dsl.fetch("SELECT CONCAT(TABLE_NAME, '.', COLUMN_NAME, ' ', COLLATION_NAME)"
                    + " FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND COLLATION_NAME IS NOT NULL"
                    + " AND COLLATION_NAME NOT IN (?, ?)", schema, collation, BINARY).getValues(0, String.class);
            softly.assertThat(columns).as("text columns whose collation is neither the database's (%s) nor %s", collation, BINARY)
                    .isEmpty();

            String same = " " + collation + " " + collation;
            softly.assertThat(bodies(dsl, "SELECT ROUTINE_NAME, COLLATION_CONNECTION, DATABASE_COLLATION"
                    + " FROM information_schema.ROUTINES WHERE ROUTINE_SCHEMA = ?", schema))
                    .as("routines: name, collation of their text, of their variables").isNotEmpty().allMatch(r -> r.endsWith(same));
            softly.assertThat(bodies(dsl, "SELECT TRIGGER_NAME, COLLATION_CONNECTION, DATABASE_COLLATION"
                    + " FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = ?", schema))
                    .as("triggers: name, collation of their text, of their variables").isNotEmpty().allMatch(r -> r.endsWith(same));
            softly.assertThat(bodies(dsl, "SELECT TABLE_NAME, COLLATION_CONNECTION, COLLATION_CONNECTION"
                    + " FROM information_schema.VIEWS WHERE TABLE_SCHEMA = ?", schema))
                    .as("views: name, collation of their text").allMatch(r -> r.endsWith(same));

            Record session = dsl.fetchOne("SELECT @@collation_connection, @@collation_database");
            softly.assertThat(session.get(0, String.class)).as("the collation of Copydesk's own session").isEqualTo(collation);
            softly.assertThat(session.get(1, String.class)).as("the database Copydesk's session uses").isEqualTo(collation);

            // a cast takes the session's collation, and is compared here with a column
            softly.assertThatCode(() -> dsl.fetchCount(dsl.select(LEASE_EVENT.ID).from(LEASE_EVENT).join(ARTICLE)
                    .on(LEASE_EVENT.ROW_KEY.eq(ARTICLE.ID.cast(String.class)))))
                    .as("a cast compared with a column through Copydesk's session").doesNotThrowAnyException();
        });
    }

    private static String databaseCollation(DSLContext dsl, String schema) {
        return dsl.fetchValue("SELECT DEFAULT_COLLATION_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = ?", schema)
                .toString();
    }

    /** "name connection-collation database-collation" for each row the query gives. */
    private static List<String> bodies(DSLContext dsl, String sql, Object... binds) {
        return dsl.fetch(sql, binds).map(r -> r.get(0, String.class) + " " + r.get(1, String.class) + " " + r.get(2, String.class));
    }

    /** The collation Connector/J gives a session on this server when nobody names one (as Copydesk's pool did). */
    private static String collationConnectorJPicksAlone(TestServer.Endpoint server) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", server.user());
        p.setProperty("password", server.password());
        p.setProperty("characterEncoding", "UTF-8");
        String url = "jdbc:mysql://" + server.host() + ":" + server.port() + "/"
                + (server.extraUrlParameters().isEmpty() ? "" : "?" + server.extraUrlParameters());
        try (Connection c = DriverManager.getConnection(url, p); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT @@collation_connection")) {
            rs.next();
            return rs.getString(1);
        }
    }
}
