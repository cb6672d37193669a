package org.copydesk.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.LEASE_EVENT;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.copydesk.db.DatabaseConfigResolver;
import org.copydesk.lease.ServerClock;
import org.copydesk.review.DemoNewsroom;
import org.copydesk.review.Newsroom;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.TestDatabase;
import org.jooq.DSLContext;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/** Every command, run in-process against the real database. */
@ExtendWith(DatabaseExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CliTest {

    private final TestDatabase db;
    private final DSLContext dsl;

    CliTest(TestDatabase db) {
        this.db = db;
        this.dsl = db.dsl();
    }

    @BeforeAll
    void demoData() {
        DemoNewsroom.loadIfEmpty(dsl, new Newsroom(dsl));
    }

    record Run(int code, String out, String err) {
    }

    private Run run(String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        if (!all.contains("--help") && !all.contains("--version") && !all.get(0).equals("help")) {
            all.addAll(List.of("--db-url", db.url(), "--db-user", db.endpoint().user()));
        }
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        // The password travels as the command line's users give it: in COPYDESK_DB_PASSWORD, never as an argument.
        Map<String, String> environment = new HashMap<>(System.getenv());
        environment.remove(DatabaseConfigResolver.URL_ENV);
        environment.remove(DatabaseConfigResolver.USER_ENV);
        environment.put(DatabaseConfigResolver.PASSWORD_ENV, db.endpoint().password());
        int code = Cli.run(all.toArray(String[]::new), new PrintWriter(out), new PrintWriter(err), environment);
        return new Run(code, out.toString(), err.toString());
    }

    @Test
    void helpListsEveryCommand() {
        Run help = run("--help");
        assertThat(help.code()).isZero();
        assertThat(help.out()).contains("server", "db", "release-daemon", "status", "editors", "desks", "claim", "decide", "purge",
                "desktop app");
        for (String command : List.of("server", "db", "import", "release-daemon", "status", "editors", "desks", "claim", "decide",
                "purge")) {
            assertThat(run(command, "--help").code()).as(command).isZero();
        }
    }

    @Test
    void errorsAreOneClearLineAndANonZeroExit() {
        Run unknown = run("editors", "set-capacity", "nobody", "3");
        assertThat(unknown.code()).isEqualTo(1);
        assertThat(unknown.err().strip()).isEqualTo("copydesk: There is no editor 'nobody'.");

        Run usage = run("claim");
        assertThat(usage.code()).isEqualTo(2);
        assertThat(usage.err()).contains("Missing required option");

        StringWriter err = new StringWriter();
        int code = Cli.run(new String[] {"status", "--db-url", "jdbc:mysql://127.0.0.1:1/copydesk", "--db-user", "x"},
                new PrintWriter(new StringWriter()), new PrintWriter(err));
        assertThat(code).isEqualTo(1);
        assertThat(err.toString().strip()).startsWith("copydesk: Cannot reach").doesNotContain("Exception").hasLineCount(1);
    }

    @Test
    void databaseOptionsBeforeTheCommandCountAsMuchAsAfterIt() {
        // before: "There is no editor of that name." from the database of the test's environment; port 1 was never tried
        for (String[] args : List.of(
                new String[] {"--db-url", "jdbc:mysql://127.0.0.1:1/copydesk", "--db-user", "nobody", "claim", "--as", "e01"},
                new String[] {"--db-url", "jdbc:mysql://127.0.0.1:1/copydesk", "--db-user", "nobody", "status"})) {
            StringWriter err = new StringWriter();
            int code = Cli.run(args, new PrintWriter(new StringWriter()), new PrintWriter(err));
            assertThat(code).as(String.join(" ", args)).isEqualTo(1);
            assertThat(err.toString().strip()).as(String.join(" ", args)).startsWith("copydesk: Cannot reach").hasLineCount(1);
        }
        StringWriter err = new StringWriter();
        int code = Cli.run(new String[] {"--db-user", "ann", "status", "--db-user", "bob"}, new PrintWriter(new StringWriter()),
                new PrintWriter(err));
        assertThat(code).isEqualTo(2);
        assertThat(err.toString().strip()).isEqualTo("copydesk: --db-user is given twice, before and after the command, with different"
                + " values; give it once.");
    }

    @Test
    void errorsNeverShowJavaClassNames() {
        // before: "ImportFailedException: …", "(java.lang.IllegalArgumentException: '30x' is not a duration…)"
        Run badDuration = run("claim", "--as", "ann", "--lease", "30x");
        assertThat(badDuration.code()).isEqualTo(2);
        assertThat(badDuration.err()).contains("'30x' is not a duration; write e.g. 90s, 15m, 2h or 30d.")
                .doesNotContain("java.", "Exception");

        assertThat(Cli.message(new org.copydesk.review.imports.ImportFailedException("Cannot read articles.csv: it is not UTF-8.",
                null, new java.io.IOException("malformed input")))).isEqualTo("Cannot read articles.csv: it is not UTF-8.");
        assertThat(Cli.message(new RuntimeException(new java.sql.SQLException("Access denied for user 'x'"))))
                .isEqualTo("Access denied for user 'x'");
        // a supervisor's command run by an editor: the database's refusal, said as one
        String denied = "execute command denied to user 'pat'@'%' for routine 'cd.deadline_forecast'";
        assertThat(Cli.message(new RuntimeException("SQL [call deadline_forecast(?, ?)]; " + denied,
                new java.sql.SQLSyntaxErrorException(denied, "42000", 1370))))
                .startsWith("Your account may not do this: it is for a supervisor or an admin")
                .contains(denied);
        // an explanation Copydesk wrote around such a refusal stays as it is
        assertThat(Cli.message(new IllegalStateException("The database schema is out of date; ask an admin.",
                new java.sql.SQLSyntaxErrorException(denied, "42000", 1370)))).isEqualTo("The database schema is out of date; ask an admin.");
        assertThat(Cli.message(new IllegalStateException("Cannot convert (java.lang.NumberFormatException: For input \"x\")")))
                .doesNotContain("java.", "Exception").contains("For input");
        // jOOQ puts the statement before the server's words; people get the words, on one line
        assertThat(Cli.message(new RuntimeException("SQL [select * from editor\n where id = ?]; Unknown column 'x'\nin 'where clause'",
                new java.sql.SQLException("Unknown column 'x'")))).isEqualTo("Unknown column 'x' in 'where clause'");
        assertThat(Cli.message(new RuntimeException("SQL [call claim_articles(?, ?)]; Communications link failure",
                new java.sql.SQLNonTransientConnectionException("Communications link failure", "08S01"))))
                .startsWith("The connection to the database was lost").doesNotContain("SQL", "call");
    }

    @Test
    void editorsAddListSetCapacityAndSetDesks() {
        Run add = run("editors", "add", "fay", "--display-name", "Fay Kim", "--capacity", "3", "--desks", "news,sport");
        assertThat(add.out()).contains("Added Fay Kim (fay, editor, capacity 3, desks news, sport)",
                "Created the database account 'fay' with the grants of an editor; its password is ");
        String password = add.out().replaceAll("(?s).*its password is (\\S+) .*", "$1").strip();
        try (var fay = org.copydesk.db.Database.open(db.endpoint().accountUrl(db.name()), "fay", password.toCharArray(), null, org.copydesk.db.DataSources.PoolSize.of(1),
                org.copydesk.db.Database.SchemaAction.MIGRATE_OR_VALIDATE, null)) {
            assertThat(new org.copydesk.review.ReviewSession(fay, org.copydesk.review.ReviewSession.Options.defaults())
                    .signedInEditor()).get().extracting(org.copydesk.review.Editor::id).isEqualTo("fay");
        } finally {
            new org.copydesk.review.AccountAdministration(dsl).dropAccount("fay");
        }
        assertThat(run("editors", "set-capacity", "fay", "4").out()).contains("capacity 4");
        assertThat(run("editors", "set-desks", "fay", "culture").out()).contains("desks culture");
        assertThat(run("editors", "list").out()).contains("Fay Kim", "culture", "Sue Lindqvist", "supervisor");
        assertThat(run("editors", "add", "fay").err()).contains("one of the newsroom's people already", "set-password fay");
        assertThat(run("editors", "set-desks", "fay", "nowhere").err()).contains("Unknown desk(s): nowhere");
    }

    @Test
    void desksListAndSetLease() {
        assertThat(run("desks", "set-lease", "culture", "45s").out()).contains("Culture now last 0m45s");
        assertThat(run("desks", "list").out()).contains("culture", "0m45s");
        assertThat(run("desks", "set-lease", "culture", "5s").err()).contains("between 30 seconds and 24 hours");
    }

    @Test
    void claimDecideAndStatusFromTheCommandLine() {
        Run claim = run("claim", "--as", "cat");
        assertThat(claim.code()).isZero();
        assertThat(claim.out()).contains("cat holds 4 of 4 (0 refreshed, 4 new)");
        long article = dsl.select(ARTICLE.ID).from(ARTICLE).where(ARTICLE.LOCKED_BY.eq("cat")).limit(1).fetchOne(ARTICLE.ID);

        Run decide = run("decide", Long.toString(article), "send_back", "--as", "cat", "--notes", "Check names");
        assertThat(decide.out()).contains("Recorded: Send back on article " + article, "waits for the writer's revision");
        assertThat(run("decide", Long.toString(article), "approve", "--as", "cat").err()).contains("does not hold article");
        Run waiting = run("waiting", "--overdue", "2d");
        assertThat(waiting.out()).contains("WAITING FOR WRITERS", "Legal  1", "OVERDUE (> 48h00m)");
        assertThat(waiting.out()).doesNotContain("Overdue: sent back");
        assertThat(run("waiting", "--overdue", "0s").err()).contains("--overdue must be a positive duration");
        assertThat(run("claim", "--as", "cat").out()).contains("cat holds 4 of 4 (3 refreshed, 1 new)");
        assertThat(run("claim", "--as", "cat").out()).contains("cat holds 4 of 4 (4 refreshed, 0 new)");

        Run status = run("status");
        assertThat(status.out()).contains("Culture", "Cat Moreau", "TIME LEFT");
        Run json = run("status", "--json");
        assertThat(json.out()).contains("\"leases\"", "\"editor\":\"cat\"", "\"finishedToday\"");
    }

    @Test
    void releaseDaemonOnceFreesExpiredLeases() {
        run("claim", "--as", "bob");
        dsl.update(ARTICLE).set(ARTICLE.EXPIRES_AT, ServerClock.plus(ServerClock.now(), Duration.ofSeconds(-5)))
                .where(ARTICLE.LOCKED_BY.eq("bob")).execute();

        Run once = run("release-daemon", "--once");

        assertThat(once.out()).contains("Released 5 expired lease(s).");
        assertThat(dsl.fetchCount(ARTICLE, ARTICLE.LOCKED_BY.eq("bob"))).isZero();
        // history names the database account the daemon signed in with
        String account = dsl.fetchValue("select substring_index(user(), '@', 1)").toString();
        assertThat(dsl.fetchCount(LEASE_EVENT, LEASE_EVENT.ACTION.eq("expire").and(LEASE_EVENT.ACTOR.eq(account))))
                .isEqualTo(5);
    }

    @Test
    void purgeRemovesOldHistory() {
        Fixtures.articles(dsl, "news", 1, 3, -60);
        run("claim", "--as", "dan");
        dsl.update(LEASE_EVENT).set(LEASE_EVENT.OCCURRED_AT, ServerClock.plus(ServerClock.now(), Duration.ofDays(-40)))
                .where(LEASE_EVENT.ACTOR.eq("dan")).execute();
        int old = dsl.fetchCount(LEASE_EVENT, LEASE_EVENT.ACTOR.eq("dan"));

        assertThat(run("purge", "--older-than", "30d").out()).contains("Removed " + old + " history entr");
        assertThat(dsl.fetchCount(LEASE_EVENT, LEASE_EVENT.ACTOR.eq("dan"))).isZero();
    }

    @Test
    void aPasswordIsNeverTakenAsACommandLineValue() {
        java.io.InputStream stdin = System.in;
        try {
            // the option asks (here an empty answer arrives); the value after it is then no option's value
            System.setIn(new java.io.ByteArrayInputStream("\n\n".getBytes(java.nio.charset.StandardCharsets.UTF_8)));
            Run given = run("desks", "list", "--db-password", "hunter22-on-the-command-line");
            assertThat(given.code()).as(given.err()).isEqualTo(2);
            assertThat(given.err()).contains("hunter22-on-the-command-line").doesNotContain("Exception");
            Run setPassword = run("editors", "set-password", "ann", "--password", "hunter22-on-the-command-line");
            assertThat(setPassword.code()).as(setPassword.err()).isEqualTo(2);
        } finally {
            System.setIn(stdin);
        }
    }

    @Test
    void dbMigrateReportsTheSchemaVersion() {
        Run migrate = run("db", "migrate");
        assertThat(migrate.code()).isZero();
        assertThat(migrate.out()).contains("Schema at version " + org.copydesk.testing.SchemaVersions.LATEST + " (0 migration(s) applied)");
    }

    @Test
    void importReportsBadRowsByLineKeepsThemAsideAndIsIdempotent() {
        String file = java.nio.file.Path.of("docs/examples/articles-with-errors.csv").toAbsolutePath().toString();
        Run first = run("import", file);
        assertThat(first.code()).isEqualTo(ExitCode.ROWS_KEPT_ASIDE.code());
        assertThat(first.out()).containsPattern("2 imported, 0 already present, 5 kept aside").contains("line ", "import quarantine");
        Run again = run("import", file);
        assertThat(again.out()).contains("0 imported, 2 already present, 5 kept aside");
        assertThat(run("import", "/nonexistent/file.csv").err()).startsWith("copydesk: ").hasLineCount(1);
    }
}
