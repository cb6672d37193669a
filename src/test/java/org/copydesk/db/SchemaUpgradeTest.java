package org.copydesk.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.copydesk.review.AccountAdministration;
import org.copydesk.testing.ReleasedMigrations;
import org.copydesk.testing.SchemaVersions;
import org.copydesk.testing.TestDatabase;
import org.copydesk.testing.TestServer;
import org.flywaydb.core.api.exception.FlywayValidateException;
import org.jooq.DSLContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A newsroom at any released schema version upgrades to this one. Each database is built with the
 * scripts exactly as that version was released ({@link ReleasedMigrations}), given a desk, an
 * editor with a held lease, a waiting article and a decision (and, where the version has the
 * account operations, the editor's account and a feed reader's), then migrated by this Copydesk.
 * Afterwards: the schema is at the newest version; every routine, trigger and view is the text of
 * its file in {@code db/routines} and nothing else is left; the data is there; the checksums the
 * history recorded are untouched, so the clients of the release the database came from still
 * validate it; the accounts have the rights of their role and kind, the editor claims and decides
 * through the operations and the feed reader reads the decisions; and a client of this Copydesk
 * opens it. A fresh install gets the same routines.
 */
class SchemaUpgradeTest {

    private static final String PID = Long.toString(ProcessHandle.current().pid());
    private static final String PASSWORD = "upgrade-secret-1";
    private static final String READER_PASSWORD = "upgrade-secret-12";
    private static final Pattern FILE = Pattern.compile("DROP (PROCEDURE|FUNCTION|TRIGGER|VIEW) IF EXISTS (\\w+);\\R(.*)",
            Pattern.DOTALL);

    /** A routine file's kind ("PROCEDURE", "FUNCTION", "TRIGGER", "VIEW") and its text. */
    private record RoutineFile(String kind, String text) {
    }

    /**
     * The versions upgraded from: every released one with {@code -Dcopydesk.test.upgrades=all}; by
     * default those whose upgrade differs. An upgrade from version n runs the versioned scripts
     * after n, which an upgrade from 1 runs too, over the same kinds of rows, and then replaces every
     * routine whatever its earlier text. What differs is what the older release left behind: 1 (no
     * routines; every versioned script runs as an upgrade), 3 (the table triggers of version 2,
     * which this version drops, still in place while the versioned scripts run), 4 (the first
     * operations, and accounts granted by the role lists of those days) and 15 (the release before
     * this one: every released checksum in the history, and the scripts its clients validate with
     * are all of the released ones).
     */
    static List<Integer> releasedVersions() {
        List<Integer> released = ReleasedMigrations.versions();
        if ("all".equals(System.getProperty("copydesk.test.upgrades"))) {
            return released;
        }
        List<Integer> differing = List.of(1, 3, 4, released.get(released.size() - 1));
        assertThat(released).containsAll(differing);
        return differing;
    }

    @ParameterizedTest(name = "from version {0}")
    @MethodSource("releasedVersions")
    void aNewsroomAtAnEarlierVersionUpgrades(int version) throws Exception {
        TestServer.Endpoint server = TestServer.endpoint();
        String name = "t_upgrade_v" + version + "_" + PID;
        String editor = "up" + version + "_" + PID;
        String reader = "rd" + version + "_" + PID;
        server.execute("DROP DATABASE IF EXISTS `" + name + "`");
        try (Database db = Database.open(server.url(name), server.user(), server.password().toCharArray(), null,
                DataSources.PoolSize.of(2), Database.SchemaAction.NONE, null)) {
            DSLContext root = db.dsl();
            ReleasedMigrations.migrateTo(db.dataSource(), version);
            newsroomAsReleased(root, editor, reader, version);
            Map<String, Integer> checksums = recordedChecksums(root);
            AccountAdministration accounts = new AccountAdministration(root);
            try {
                Migrations.Outcome outcome = new Migrations(db.dataSource()).migrate();
                if (version < 4) { // no account operations before version 4
                    accounts.createAccount(editor, PASSWORD.toCharArray());
                }
                if (version < 5) { // nor integration accounts before version 5
                    accounts.createIntegrationAccount(reader, "feed_reader", READER_PASSWORD.toCharArray());
                }

                assertThat(outcome.schemaVersion()).isEqualTo(SchemaVersions.LATEST);
                assertThat(recordedChecksums(root)).as("the history of versions 1 to %s as recorded", version)
                        .containsAllEntriesOf(checksums);
                assertRoutinesAreTheFiles(root, name);
                assertThat(root.fetch("select external_id, status, locked_by, lease_token from article order by id")
                        .map(r -> r.get(0) + " " + r.get(1) + " " + r.get(2) + " " + r.get(3)))
                        .containsExactly("held queued " + editor + " 1", "waiting queued null 0", "decided approved null 1");
                assertThat(count(root, "select count(*) from article where external_id = 'held' and held_revision = 1"))
                        .as("the lease holds the article's first revision").isEqualTo(1);
                assertThat(count(root, "select count(*) from article_revision where revision = 1")).isEqualTo(3);
                assertThat(count(root, "select count(*) from decision")).isEqualTo(1);
                assertThat(accounts.everyAccountHasCurrentGrants()).as("the migration regranted every account").isTrue();

                claimAndDecideAs(server, name, editor);
                assertThat(feedAsReader(server, name, reader)).as("the feed reader reads both decisions")
                        .containsExactly("approved", "approved");

                ReleasedMigrations.validateAsReleaseOf(db.dataSource(), version);
                try (Database client = openAs(server.accountUrl(name), editor)) {
                    assertThat(new Migrations(client.dataSource()).currentVersion()).isEqualTo(SchemaVersions.LATEST);
                }
                assertThat(new Migrations(db.dataSource()).migrate().applied()).as("nothing left to apply").isZero();

                // a routine re-created any other way loses its grants: the check looks at every operation of a role
                root.execute("revoke execute on procedure `" + name + "`.`decide_article` from '" + editor + "'@'%'");
                assertThat(accounts.everyAccountHasCurrentGrants()).isFalse();
                assertThat(accounts.regrantExistingAccounts()).as("people and other systems").isEqualTo(2);
                assertThat(accounts.everyAccountHasCurrentGrants()).isTrue();
            } finally {
                server.execute("DROP USER IF EXISTS '" + editor + "'@'%'");
                server.execute("DROP USER IF EXISTS '" + reader + "'@'%'");
            }
        } finally {
            server.execute("DROP DATABASE IF EXISTS `" + name + "`");
        }
    }

    /**
     * A newsroom whose DBA made the database with the server's defaults (latin1, as MariaDB's
     * compiled-in defaults have it before 11.6) and that the previous release migrated: its tables
     * and its routines' parameters are latin1. Text that fits latin1 (which is Windows-1252 on these
     * servers: curly quotes, dashes, the euro) is in it. A person's client is told to ask the admin;
     * the owner's migration converts the database, keeps every character, re-creates the routines
     * in utf8mb4, and from then on Greek and emoji come in and decisions are recorded.
     */
    @Test
    void aNewsroomOnALatin1DatabaseThePreviousReleaseMigratedUpgradesWithoutLosingACharacter() throws Exception {
        TestServer.Endpoint server = TestServer.endpoint();
        String name = "t_upgrade_latin1_" + PID;
        String editor = "upl_" + PID;
        String reader = "rdl_" + PID;
        String kept = "Caf\u00e9 \u201ccr\u00e8me\u201d \u2014 5 \u20ac, na\u00efve \u00c5ngstr\u00f6m";
        server.execute("DROP DATABASE IF EXISTS `" + name + "`");
        server.execute("CREATE DATABASE `" + name + "` CHARACTER SET latin1");
        try (Database db = Database.open(server.url(name), server.user(), server.password().toCharArray(), null,
                DataSources.PoolSize.of(2), Database.SchemaAction.NONE, null)) {
            DSLContext root = db.dsl();
            migrateAsThePreviousReleaseDid(db.dataSource());
            assertThat(root.fetchOne("select count(*) from information_schema.columns where table_schema = ?"
                    + " and character_set_name = 'latin1'", name).get(0, Integer.class)).as("latin1 columns before").isPositive();
            newsroomAsReleased(root, editor, reader, Integer.parseInt(SchemaVersions.LATEST));
            root.execute("update article set title = ?, body = ?", kept, kept);
            root.execute("update article set decision_note = ? where external_id = 'decided'", kept);
            try {
                assertThatThrownBy(() -> openAs(server.accountUrl(name), editor)).isInstanceOf(DatabaseSetupException.class)
                        .hasMessageContaining("stores text as latin1")
                        .hasMessageContaining("ask an admin to run copydesk db migrate");

                Migrations.Outcome outcome = new Migrations(db.dataSource()).migrate();

                assertThat(outcome.applied()).as("every routine applied again").isGreaterThanOrEqualTo(routineFiles().size());
                assertThat(root.fetch("select title, body from article").map(r -> r.get(0) + "|" + r.get(1)))
                        .as("every character kept").containsOnly(kept + "|" + kept);
                assertThat(root.fetchOne("select decision_note from article where external_id = 'decided'").get(0)).isEqualTo(kept);
                assertThat(root.fetchOne("select count(*) from information_schema.referential_constraints where constraint_schema = ?",
                        name).get(0, Integer.class)).as("foreign keys, added again").isEqualTo(foreignKeysOfAFreshInstall());
                assertRoutinesAreTheFiles(root, name);
                SessionCollationTest.assertOneCollation(db, name);
                assertThat(accounts(root).everyAccountHasCurrentGrants()).isTrue();
                claimAndDecideAs(server, name, editor);
                SessionCollationTest.assertAnyTextIsImportedAndDecided(root);
                try (Database client = openAs(server.accountUrl(name), editor)) {
                    assertThat(new Migrations(client.dataSource()).currentVersion()).isEqualTo(SchemaVersions.LATEST);
                }
                assertThat(new Migrations(db.dataSource()).migrate().applied()).as("nothing left to apply or convert").isZero();
            } finally {
                server.execute("DROP USER IF EXISTS '" + editor + "'@'%'");
                server.execute("DROP USER IF EXISTS '" + reader + "'@'%'");
            }
        } finally {
            server.execute("DROP DATABASE IF EXISTS `" + name + "`");
        }
    }

    /** The previous release's migration: this build's scripts, without the conversion to utf8mb4 that comes first now. */
    static void migrateAsThePreviousReleaseDid(javax.sql.DataSource dataSource) {
        org.flywaydb.core.Flyway.configure().dataSource(dataSource).locations("classpath:db/migration").load().migrate();
        org.flywaydb.core.Flyway.configure().dataSource(dataSource).locations("classpath:db/routines")
                .table(Migrations.ROUTINES_HISTORY).baselineOnMigrate(true).load().migrate();
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
            s.execute("call regrant_accounts()");
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static int foreignKeysOfAFreshInstall() {
        try (TestDatabase fresh = TestDatabase.create("fresh_keys", 1)) {
            return fresh.dsl().fetchOne("select count(*) from information_schema.referential_constraints where constraint_schema = ?",
                    fresh.name()).get(0, Integer.class);
        }
    }

    private static AccountAdministration accounts(DSLContext root) {
        return new AccountAdministration(root);
    }

    /**
     * A fresh install has every routine of its file. Its history validates with the checksums of
     * today's scripts or of the scripts as released, and with no other: a script changed after it
     * ran is still refused, by a client and by the owner's migration.
     */
    @Test
    void aFreshInstallHasEveryRoutineOfItsFileAndAcceptsOnlyKnownChecksums() {
        try (TestDatabase db = TestDatabase.create("fresh_install", 2)) {
            Migrations migrations = new Migrations(db.database().dataSource());
            assertThat(migrations.currentVersion()).isEqualTo(SchemaVersions.LATEST);
            assertRoutinesAreTheFiles(db.dsl(), db.name());

            db.dsl().execute("update flyway_schema_history set checksum = checksum + 1 where version = '4'");
            assertThatThrownBy(migrations::migrateOrValidate).isInstanceOf(FlywayValidateException.class)
                    .hasMessageContaining("checksum mismatch for migration version 4");
            assertThatThrownBy(migrations::migrate).isInstanceOf(FlywayValidateException.class);

            ReleasedMigrations.checksums(db.database().dataSource()).forEach((version, checksum) ->
                    db.dsl().execute("update flyway_schema_history set checksum = ? where version = ?", checksum, version));
            assertThat(migrations.migrateOrValidate().applied()).as("every released checksum is known").isZero();
            assertThat(migrations.migrate().applied()).isZero();
        }
    }

    /**
     * A routine file that changed since the last migration (here: the history says another text of
     * claim_articles was applied), or that failed to apply, is applied again by the owner's
     * migration, which then regrants the accounts; a person's client meanwhile names the admin's
     * command. A schema a newer Copydesk migrated keeps that version's routines: this one neither
     * replaces them nor refuses to open.
     */
    @Test
    void aChangedRoutineIsAppliedByTheOwnerAndNamedToOthers() {
        try (TestDatabase db = TestDatabase.create("changed_routine", 2)) {
            DSLContext root = db.dsl();
            String editor = "chg_" + PID;
            root.execute("insert into editor (id, display_name, role, capacity) values (?, 'Ann', 'editor', 3)", editor);
            AccountAdministration accounts = new AccountAdministration(root);
            accounts.createAccount(editor, PASSWORD.toCharArray());
            try {
                int checksum = root.fetchOne("select checksum from flyway_routines_history where script = 'R__claim_articles.sql'")
                        .get(0, Integer.class);
                root.execute("update flyway_routines_history set checksum = ? where script = 'R__claim_articles.sql'", checksum + 1);
                assertThatThrownBy(() -> openAs(db, editor)).isInstanceOf(DatabaseSetupException.class)
                        .hasMessageContaining("The database's operations are out of date")
                        .hasMessageContaining("Ask an admin to run: copydesk db migrate");

                root.execute("insert into flyway_schema_history (installed_rank, version, description, type, script, checksum,"
                        + " installed_by, execution_time, success) select max(installed_rank) + 1, '99', 'from a newer copydesk',"
                        + " 'SQL', 'V99__from_a_newer_copydesk.sql', 0, 'someone', 0, 1 from flyway_schema_history");
                openAs(db, editor).close();
                assertThat(new Migrations(db.database().dataSource()).migrate().applied()).as("a newer version's routines").isZero();
                root.execute("delete from flyway_schema_history where version = '99'");

                // applying the file failed once (the migrating account lacked a right, say): still behind, then applied
                root.execute("insert into flyway_routines_history (installed_rank, version, description, type, script, checksum,"
                        + " installed_by, execution_time, success) select max(installed_rank) + 1, null, 'claim articles', 'SQL',"
                        + " 'R__claim_articles.sql', ?, 'someone', 0, 0 from flyway_routines_history", checksum);
                assertThatThrownBy(() -> openAs(db, editor)).hasMessageContaining("The database's operations are out of date");
                assertThat(new Migrations(db.database().dataSource()).migrate().applied()).isEqualTo(1);
                assertThat(accounts.everyAccountHasCurrentGrants()).as("claim_articles was re-created and granted again").isTrue();
                openAs(db, editor).close();
            } finally {
                accounts.dropAccount(editor);
            }
        }
    }

    private static Database openAs(TestDatabase db, String editor) {
        return openAs(db.endpoint().accountUrl(db.name()), editor);
    }

    /** Opens the database as a person's Copydesk does: migrate if the account may, else validate. */
    private static Database openAs(String url, String editor) {
        return Database.open(url, editor, PASSWORD.toCharArray(), null, DataSources.PoolSize.of(1),
                Database.SchemaAction.MIGRATE_OR_VALIDATE, null);
    }

    /**
     * What the release at {@code version} could hold: written with plain SQL as its owner (the
     * generated classes describe today's tables), with the columns every version has.
     */
    private static void newsroomAsReleased(DSLContext root, String editor, String reader, int version) {
        root.execute("insert into desk (id, name) values ('news', 'News')");
        root.execute("insert into editor (id, display_name, role, capacity) values (?, 'Ann', 'editor', 3)", editor);
        root.execute("insert into editor_desk (editor_id, desk_id) values (?, 'news')", editor);
        for (String article : List.of("held", "waiting", "decided")) {
            root.execute("insert into article (external_id, desk_id, title, body, available_at)"
                    + " values (?, 'news', ?, 'The text.', timestampadd(minute, -5, utc_timestamp(6)))", article, "Title " + article);
        }
        root.execute("update article set locked_by = ?, lease_token = 1, queue_lane = 0, claimed_at = utc_timestamp(6),"
                + " expires_at = timestampadd(hour, 1, utc_timestamp(6)) where external_id = 'held'", editor);
        root.execute("update article set status = 'approved', lease_token = 1, decided_by = ?, decided_at = utc_timestamp(6),"
                + " decision_note = '' where external_id = 'decided'", editor);
        root.execute("insert into decision (request_id, article_id, editor_id, verdict, notes, lease_token)"
                + " select ?, id, ?, 'approve', '', 1 from article where external_id = 'decided'", UUID.randomUUID().toString(), editor);
        root.execute("insert into lease_event (resource, row_key, action, actor, old_owner, old_token)"
                + " select 'article', cast(id as char), 'complete', ?, ?, 1 from article where external_id = 'decided'", editor, editor);
        if (version >= 4) {
            root.execute("call create_account(?, ?)", editor, PASSWORD);
        }
        if (version >= 5) {
            root.execute("call create_integration_account(?, 'feed_reader', ?)", reader, READER_PASSWORD);
        }
    }

    private static int count(DSLContext root, String sql) {
        return root.fetchOne(sql).get(0, Integer.class);
    }

    private static Map<String, Integer> recordedChecksums(DSLContext root) {
        return root.fetch("select version, checksum from flyway_schema_history where version is not null")
                .intoMap(r -> r.get(0, String.class), r -> r.get(1, Integer.class));
    }

    /** The editor's Reload refreshes the held lease and takes the waiting article; both decisions are recorded. */
    private static void claimAndDecideAs(TestServer.Endpoint server, String database, String editor) throws SQLException {
        try (Connection c = DriverManager.getConnection(server.accountUrl(database), editor, PASSWORD);
             Statement s = c.createStatement()) {
            ResultSet summary = s.executeQuery("call claim_articles(null, null, null, null, null)");
            assertThat(summary.next()).isTrue();
            assertThat(summary.getInt("refreshed")).isEqualTo(1);
            assertThat(summary.getInt("claimed")).isEqualTo(1);
            assertThat(s.getMoreResults()).isTrue();
            ResultSet held = s.getResultSet();
            Map<Long, Long> tokens = new java.util.LinkedHashMap<>();
            while (held.next()) {
                tokens.put(held.getLong("id"), held.getLong("lease_token"));
            }
            assertThat(tokens).hasSize(2);
            for (Map.Entry<Long, Long> lease : tokens.entrySet()) {
                ResultSet decided = s.executeQuery("call decide_article(null, " + lease.getKey() + ", " + lease.getValue()
                        + ", '" + UUID.randomUUID() + "', 'approve', '')");
                assertThat(decided.next()).isTrue();
                assertThat(decided.getString("outcome")).isEqualTo("recorded");
            }
        }
    }

    private static List<String> feedAsReader(TestServer.Endpoint server, String database, String reader) throws SQLException {
        List<String> outcomes = new java.util.ArrayList<>();
        try (Connection c = DriverManager.getConnection(server.accountUrl(database), reader, READER_PASSWORD);
             Statement s = c.createStatement(); ResultSet feed = s.executeQuery("select outcome from outcome_feed order by cursor_id")) {
            while (feed.next()) {
                outcomes.add(feed.getString(1));
            }
        }
        return outcomes;
    }

    /**
     * Every file of {@code db/routines} is in the database with its text (the server keeps a
     * routine's or trigger's body as written; a view's query it rewrites, so a view is checked by
     * name), and no routine, trigger or view is there without a file.
     */
    private static void assertRoutinesAreTheFiles(DSLContext root, String schema) {
        Map<String, RoutineFile> files = routineFiles();
        boolean mariaDb = root.fetchOne("select version() like '%MariaDB%'").get(0, Boolean.class);
        Map<String, String> bodies = new java.util.HashMap<>();
        root.fetch("select routine_name, routine_type, routine_definition from information_schema.routines where routine_schema = ?",
                schema).forEach(r -> bodies.put(r.get(0, String.class), r.get(1, String.class) + " " + r.get(2, String.class)));
        root.fetch("select trigger_name, action_statement from information_schema.triggers where trigger_schema = ?", schema)
                .forEach(r -> bodies.put(r.get(0, String.class), "TRIGGER " + r.get(1, String.class)));
        root.fetch("select table_name from information_schema.views where table_schema = ?", schema)
                .forEach(r -> bodies.put(r.get(0, String.class), "VIEW "));
        assertThat(bodies.keySet()).as("routines, triggers and views in the database").containsExactlyInAnyOrderElementsOf(files.keySet());
        files.forEach((name, file) -> {
            String body = bodies.get(name);
            assertThat(body).as(name).startsWith(file.kind() + " ");
            assertThat(normalized(file.text(), mariaDb)).as("%s is the text of R__%s.sql", name, name)
                    .contains(normalized(body.substring(file.kind().length() + 1), mariaDb));
        });
    }

    private static Map<String, RoutineFile> routineFiles() {
        try (Stream<Path> files = Files.list(Path.of("db", "routines"))) {
            return files.filter(p -> p.getFileName().toString().startsWith("R__")).collect(Collectors.toMap(
                    p -> p.getFileName().toString().replaceAll("^R__(.*)\\.sql$", "$1"), SchemaUpgradeTest::read));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static RoutineFile read(Path file) {
        try {
            Matcher m = FILE.matcher(Files.readString(file));
            assertThat(m.lookingAt()).as(file + " starts by dropping what it creates").isTrue();
            assertThat(file.getFileName().toString()).isEqualTo("R__" + m.group(2) + ".sql");
            return new RoutineFile(m.group(1), m.group(3));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Whitespace, quotes doubled inside literals (MySQL shows a routine's literals unescaped) and a
     * hex literal's character set introducer (MariaDB shows {@code _utf8mb4 X'0A'} as {@code  X'0A'}), as one.
     */
    private static String normalized(String sql, boolean mariaDb) {
        // MariaDB stores the statement inside its executable comment (/*M!100201 ... */) as plain text and leaves a
        // MySQL-only one (/*!80000 ... */) out of the body; MySQL keeps the first as a comment and stores the second as
        // plain text. Both sides are unwrapped, or the MySQL-only part left out, alike.
        String versioned = sql.replaceAll("(?s)/\\*!\\d+ (.*?)\\*/", mariaDb ? "" : "$1");
        return versioned.replaceAll("(?s)/\\*M!\\d+ (.*?)\\*/", "$1")
                .replaceAll("_utf8mb4\\s+X'", " X'").replaceAll("\\s+", " ")
                .replaceAll("'+", "'").trim();
    }
}
