package org.copydesk.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.LEASE_EVENT;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;
import org.assertj.core.api.SoftAssertions;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.TestDatabase;
import org.copydesk.testing.TestServer;
import org.jooq.DSLContext;
import org.jooq.Record;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

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

    /** Every disagreement at once (soft assertions): the report shows which of the parts differ. */
    private static void assertOneCollation(Database database, String schema) {
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
