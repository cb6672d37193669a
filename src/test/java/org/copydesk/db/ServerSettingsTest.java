package org.copydesk.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.copydesk.review.AccountAdministration;
import org.copydesk.review.imports.ArticleImporter;
import org.copydesk.review.imports.ImportListener;
import org.copydesk.review.imports.ImportReport;
import org.copydesk.testing.TestServer;
import org.jooq.DSLContext;
import org.jooq.Record;
import org.jooq.Results;
import org.junit.jupiter.api.Test;

/**
 * A server a DBA set up for other applications too, with settings of its own (SET GLOBAL, each
 * put back afterwards): Copydesk installs and works on it, or names the setting in one line before
 * it changes anything. SET GLOBAL would reach the tests of another JVM on a shared server, so the
 * server passes of .ci/run leave this class out (.ci/embedded-only-tests); in the embedded pass each
 * test JVM has a server of its own.
 */
class ServerSettingsTest {

    private static final String PID = Long.toString(ProcessHandle.current().pid());
    private static final String PASSWORD = "settings-secret-1";

    private final TestServer.Endpoint server = TestServer.endpoint();

    /**
     * A server whose SQL mode changes what SQL means (double quotes name things, a backslash is a
     * character, CHAR values come back padded, GROUP BY is strict), whose {@code init_connect} turns
     * autocommit off for every account without SUPER (so people's), that defaults to latin1, and
     * whose lock waits end after a second: a database made there with a plain {@code CREATE
     * DATABASE} migrates, and a person signed in with their own account claims and decides text in
     * any script, in sessions with Copydesk's SQL mode and autocommit on.
     */
    @Test
    void aServerWithItsOwnSqlModeAutocommitOffAtConnectAndLatin1RunsCopydesk() throws Exception {
        String name = "t_dba_settings_" + PID;
        String editor = "dba_ann_" + PID;
        List<String> restore = new ArrayList<>();
        try (Connection admin = server.adminConnection(); Statement s = admin.createStatement()) {
            // MariaDB before 11.1 names the isolation tx_isolation only; MySQL 8 and later MariaDB have transaction_isolation
            String isolation = global(s, "tx_isolation".equals(isolationVariable(s)) ? "tx_isolation" : "transaction_isolation");
            restore.add("SET GLOBAL TRANSACTION ISOLATION LEVEL " + isolation.replace('-', ' '));
            for (String variable : List.of("sql_mode", "init_connect", "character_set_server", "collation_server",
                    "innodb_lock_wait_timeout")) {
                String value = global(s, variable);
                restore.add("SET GLOBAL " + variable + " = " + (value.matches("\\d+") ? value : "'" + value.replace("'", "''") + "'"));
            }
            s.execute("SET GLOBAL sql_mode = 'ANSI_QUOTES,NO_BACKSLASH_ESCAPES,PAD_CHAR_TO_FULL_LENGTH,ONLY_FULL_GROUP_BY'");
            s.execute("SET GLOBAL TRANSACTION ISOLATION LEVEL READ COMMITTED");
            s.execute("SET GLOBAL init_connect = 'SET autocommit = 0'");
            s.execute("SET GLOBAL character_set_server = latin1, collation_server = latin1_swedish_ci");
            s.execute("SET GLOBAL innodb_lock_wait_timeout = 1");
        }
        try {
            try (Connection dba = server.adminConnection(); Statement s = dba.createStatement()) {
                s.execute("DROP DATABASE IF EXISTS \"" + name + "\"");
                s.execute("CREATE DATABASE \"" + name + "\"");
                assertThat(value(s, "SELECT DEFAULT_CHARACTER_SET_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = '"
                        + name + "'")).as("the DBA's database as made").isEqualTo("latin1");
            }
            // the previous release migrated it there: its tables and routines in latin1, as the server's modes had them
            try (Database previous = Database.open(server.url(name), server.user(), server.password().toCharArray(), null,
                    DataSources.PoolSize.of(1), Database.SchemaAction.NONE, null)) {
                SchemaUpgradeTest.migrateAsThePreviousReleaseDid(previous.dataSource());
                previous.dsl().execute("insert into desk (id, name) values ('news', 'News \u00e9')");
            }
            try (Database owner = Database.open(server.url(name), server.user(), server.password().toCharArray(), null,
                    DataSources.PoolSize.of(2), Database.SchemaAction.MIGRATE, null)) {
                DSLContext root = owner.dsl();
                assertThat(root.fetchValue("select name from desk where id = 'news'")).isEqualTo("News \u00e9");
                root.execute("insert into editor (id, display_name, role, capacity) values (?, 'Ann', 'editor', 3)", editor);
                root.execute("insert into editor_desk (editor_id, desk_id) values (?, 'news')", editor);
                new AccountAdministration(root).createAccount(editor, PASSWORD.toCharArray());
                String title = "\u0395\u03bb\u03bb\u03b7\u03bd\u03b9\u03ba\u03ac \ud83c\udf0d \"quoted\" it's back\\slash";
                String json = "[{\"external_id\": \"dba-1\", \"desk\": \"news\", \"title\": " + jsonString(title) + ", \"body\": "
                        + jsonString(title) + "}, {\"external_id\": \"dba-2\", \"desk\": \"no such desk \\\\ \\\"x\\\"\"}]";
                byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
                ImportReport report = new ArticleImporter(root, Clock.systemUTC()).importStream(new ByteArrayInputStream(bytes),
                        "dba.json", bytes.length, "sam", ImportListener.NONE);
                assertThat(report.imported()).as("%s", report).isEqualTo(1);
                assertThat(root.fetchOne("select count(*) from import_quarantine").get(0, Integer.class))
                        .as("the row with no such desk, kept aside with its quotes and backslashes").isEqualTo(1);
                assertThat(root.fetchOne("select title, body from article where external_id = 'dba-1'").intoArray())
                        .containsExactly(title, title);

                try (Database person = Database.open(server.accountUrl(name), editor, PASSWORD.toCharArray(), null,
                        DataSources.PoolSize.of(1), Database.SchemaAction.MIGRATE_OR_VALIDATE, null)) {
                    DSLContext ann = person.dsl();
                    Record session = ann.fetchOne("SELECT @@SESSION.autocommit, @@SESSION.sql_mode");
                    assertThat(session.get(0, Integer.class)).as("autocommit, whatever init_connect set").isEqualTo(1);
                    assertThat(Set.of(session.get(1, String.class).split(",")))
                            .isEqualTo(Set.of(DataSources.SESSION_SQL_MODE.split(",")));

                    Results claimed = ann.fetchMany("call claim_articles(null, null, null, null, null)");
                    Record held = claimed.get(1).get(0);
                    Results decided = ann.fetchMany("call decide_article(null, ?, ?, ?, 'approve', ?)", held.get("id", Long.class),
                            held.get("lease_token", Long.class), UUID.randomUUID().toString(), title);
                    assertThat(decided.get(0).get(0).get("outcome", String.class)).isEqualTo("recorded");
                }
                assertThat(root.fetchOne("select title, decision_note, status from article where external_id = 'dba-1'").intoArray())
                        .containsExactly(title, title, "approved");
                SessionCollationTest.assertOneCollation(owner, name);
            } finally {
                server.execute("DROP USER IF EXISTS '" + editor + "'@'%'");
            }
        } finally {
            try (Connection admin = server.adminConnection(); Statement s = admin.createStatement()) {
                for (String statement : restore) {
                    s.execute(statement);
                }
                s.execute("DROP DATABASE IF EXISTS `" + name + "`");
            }
        }
    }

    /**
     * A replica, or a server set aside, reached by mistake: {@code read_only} does not stop an
     * account with SUPER (the tests' administrator has it), so without the check the owner's
     * migration would change it. Refused before anything changes, in one line; doctor says the same.
     */
    @Test
    void aReadOnlyServerIsRefusedInOneLineBeforeAnythingChanges() throws Exception {
        String name = "t_read_only_" + PID;
        server.execute("DROP DATABASE IF EXISTS `" + name + "`");
        server.execute("CREATE DATABASE `" + name + "` CHARACTER SET utf8mb4");
        try (Database unmigrated = Database.open(server.url(name), server.user(), server.password().toCharArray(), null,
                DataSources.PoolSize.of(1), Database.SchemaAction.NONE, null)) {
            server.execute("SET GLOBAL read_only = ON");
            try {
                assertThatThrownBy(() -> Database.open(server.url(name), server.user(), server.password().toCharArray(), null,
                        DataSources.PoolSize.of(1), Database.SchemaAction.MIGRATE, null).close())
                        .isInstanceOf(DatabaseSetupException.class)
                        .hasMessageContaining("takes no writes (read_only is ON)")
                        .hasMessageContaining("point Copydesk at the primary server")
                        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
                assertThatThrownBy(() -> unmigrated.migrate()).hasMessageContaining("Nothing was changed.");
                assertThat(ServerSettings.problems(unmigrated.dataSource())).anySatisfy(p -> assertThat(p).contains("read_only is ON"));
                assertThat(unmigrated.dsl().fetchOne("select count(*) from information_schema.tables where table_schema = ?", name)
                        .get(0, Integer.class)).as("nothing created").isZero();
            } finally {
                server.execute("SET GLOBAL read_only = OFF");
            }
            assertThat(ServerSettings.problems(unmigrated.dataSource())).isEmpty();
        } finally {
            server.execute("DROP DATABASE IF EXISTS `" + name + "`");
        }
    }

    /**
     * A server that keeps a binary log lets only SUPER create stored functions and triggers unless
     * {@code log_bin_trust_function_creators} is on (error 1419, seen from MySQL 8.0.31 with the
     * owner of docs/security.md): the migration's failure is that one line, not Flyway's page.
     */
    @Test
    void aRoutineTheBinaryLogRefusedIsExplainedInOneLine() {
        SQLException refused = new SQLException("You do not have the SUPER privilege and binary logging is enabled (you *might*"
                + " want to use the less safe log_bin_trust_function_creators variable)", "HY000", 1419);
        assertThat(ServerSettings.explain(new RuntimeException("Migration of schema failed! Please restore backups", refused)))
                .hasValueSatisfying(line -> assertThat(line).contains("log_bin_trust_function_creators = 1")
                        .contains("copydesk db migrate").doesNotContain("\n"));
        assertThat(ServerSettings.explain(new RuntimeException(new SQLException("other", "HY000", 1064)))).isEmpty();
    }

    private static String jsonString(String text) {
        return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    /** The name this server gives the isolation variable. */
    private static String isolationVariable(Statement s) throws SQLException {
        try (ResultSet rs = s.executeQuery("SHOW GLOBAL VARIABLES LIKE 'transaction_isolation'")) {
            return rs.next() ? "transaction_isolation" : "tx_isolation";
        }
    }

    private static String global(Statement s, String variable) throws SQLException {
        return value(s, "SELECT @@GLOBAL." + variable);
    }

    private static String value(Statement s, String sql) throws SQLException {
        try (ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }
}
