package org.copydesk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.copydesk.db.DatabaseConfigResolver;
import org.copydesk.lease.DatabaseBusyException;
import org.copydesk.review.AccountAdministration;
import org.copydesk.review.DemoNewsroom;
import org.copydesk.review.Newsroom;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import picocli.CommandLine;

/**
 * The frame every database command runs in ({@link DatabaseCommand}): each kind of failure ends the
 * same way whichever command met it, one plain line on stderr and its documented exit code, shown
 * through two or more commands that reach the database in different ways ({@link DatabaseAccess}).
 */
@ExtendWith(DatabaseExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CommandFrameTest {

    /** Nothing listens on port 1: a database that cannot be reached. */
    private static final String NOWHERE = "jdbc:mysql://127.0.0.1:1/copydesk";

    private final TestDatabase db;
    /** Account names are the server's, not the database's: unique per run. */
    private final String prefix = "cf" + UUID.randomUUID().toString().substring(0, 6);
    private final List<String> made = new ArrayList<>();

    CommandFrameTest(TestDatabase db) {
        this.db = db;
    }

    @BeforeAll
    void newsroom() {
        DemoNewsroom.loadIfEmpty(db.dsl(), new Newsroom(db.dsl()));
    }

    @AfterAll
    void dropAccounts() {
        AccountAdministration accounts = new AccountAdministration(db.dsl());
        made.forEach(accounts::dropAccount);
    }

    record Run(int code, String out, String err) {
        List<String> errLines() {
            return err.lines().filter(l -> !l.isBlank()).toList();
        }
    }

    /** {@code args} with the database options given (no defaults added), the password in the environment. */
    private static Run runWith(String password, String... args) {
        Map<String, String> environment = new HashMap<>(System.getenv());
        environment.remove(DatabaseConfigResolver.URL_ENV);
        environment.remove(DatabaseConfigResolver.USER_ENV);
        environment.put(DatabaseConfigResolver.PASSWORD_ENV, password);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Cli.run(args, new PrintWriter(out), new PrintWriter(err), environment);
        return new Run(code, out.toString(), err.toString());
    }

    /** As the database's owner (the test's account). */
    private Run run(String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--db-url", db.url(), "--db-user", db.endpoint().user()));
        return runWith(db.endpoint().password(), all.toArray(String[]::new));
    }

    /** As a person of the newsroom with {@code role}, made for the test (their own account, their own password). */
    private Run runAs(String[] person, String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--db-url", db.endpoint().accountUrl(db.name()), "--db-user", person[0]));
        return runWith(person[1], all.toArray(String[]::new));
    }

    private String[] person(String suffix, String role) {
        String name = prefix + suffix;
        made.add(name);
        Run added = run("editors", "add", name, "--role", role);
        assertThat(added.code()).as(added.err()).isZero();
        return new String[] {name, added.out().replaceAll("(?s).*its password is (\\S+) .*", "$1").strip()};
    }

    private static Run nowhere(String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--db-url", NOWHERE, "--db-user", "nobody"));
        return runWith("x", all.toArray(String[]::new));
    }

    @Test
    void everyCommandThatTakesTheDatabaseOptionsRunsInTheFrame() {
        CommandLine root = new CommandLine(new CopydeskCommand(config -> { }, Map.of()));
        List<String> framed = new ArrayList<>();
        List<String> outside = new ArrayList<>();
        collect(root, framed, outside);
        // a command with its own copy of the database options would open, run and fail its own way
        assertThat(outside).as("commands that take --db-url but are not DatabaseCommands").isEmpty();
        assertThat(framed).contains("copydesk status", "copydesk feed", "copydesk backup", "copydesk doctor",
                "copydesk db migrate", "copydesk relay", "copydesk relay status", "copydesk quarantine requeue", "copydesk people sync",
                "copydesk stages add", "copydesk editors import", "copydesk due set", "copydesk due list",
                "copydesk due forecast", "copydesk due report").hasSize(42);
    }

    private static void collect(CommandLine command, List<String> framed, List<String> outside) {
        for (CommandLine sub : command.getSubcommands().values()) {
            if (sub.getCommandSpec().findOption("--db-url") != null) {
                (sub.getCommand() instanceof DatabaseCommand<?> ? framed : outside).add(sub.getCommandSpec().qualifiedName());
            }
            collect(sub, framed, outside);
        }
    }

    @Test
    void aWrongCommandLineIsExitCode2BeforeTheDatabaseIsReached() {
        for (String[] args : List.of(new String[] {"waiting", "--overdue", "0s"}, new String[] {"purge", "--older-than", "0s"},
                new String[] {"relay", "status", "--limit", "-1"}, new String[] {"feed", "--limit", "0"},
                new String[] {"quarantine", "requeue"})) {
            Run r = nowhere(args);
            String command = String.join(" ", args);
            assertThat(r.code()).as(command + ": " + r.err()).isEqualTo(ExitCode.USAGE.code());
            assertThat(r.errLines()).as(command).hasSize(2);
            assertThat(r.errLines().get(0)).as(command).startsWith("copydesk: ").doesNotContain("Cannot reach");
            assertThat(r.errLines().get(1)).as(command).startsWith("Try 'copydesk " + args[0]);
        }
    }

    @Test
    void aDatabaseThatCannotBeReachedIsOneLineAndExitCode1WhicheverWayTheCommandOpensIt() {
        // a person's work, reading only, the outcome feed, the owner's commands, the database as it is
        for (String[] args : List.of(new String[] {"desks", "add", "x", "X"}, new String[] {"relay", "status"},
                new String[] {"feed"}, new String[] {"backup", "never-written.backup"}, new String[] {"db", "migrate"},
                new String[] {"doctor"})) {
            Run r = nowhere(args);
            String command = String.join(" ", args);
            assertThat(r.code()).as(command).isEqualTo(ExitCode.FAILED.code());
            assertThat(r.errLines()).as(command).hasSize(1);
            assertThat(r.errLines().get(0)).as(command).startsWith("copydesk: Cannot reach").doesNotContain("Exception", "SQL");
            assertThat(r.out()).as(command).isEmpty();
        }
        assertThat(Path.of("never-written.backup")).doesNotExist();
    }

    @Test
    void aRefusalByTheDatabaseIsItsOwnWordsInOneLineAndExitCode1() {
        Run drop = run("integrations", "drop", prefix + "-none");
        assertThat(drop.code()).as(drop.err()).isEqualTo(ExitCode.FAILED.code());
        assertThat(drop.errLines()).containsExactly("copydesk: There is no integration account of that name.");

        Run requeue = run("quarantine", "requeue", "--article", "999999999");
        assertThat(requeue.code()).as(requeue.err()).isEqualTo(ExitCode.FAILED.code());
        assertThat(requeue.errLines()).containsExactly("copydesk: This article is not in quarantine.");
    }

    @Test
    void aRightTheAccountLacksIsOneLineAndExitCode1() {
        String[] editor = person("ed", "editor");
        for (String[] args : List.of(new String[] {"desks", "add", prefix, "Frame"}, new String[] {"purge", "--older-than", "30d"},
                new String[] {"integrations", "drop", prefix + "-none"})) {
            Run r = runAs(editor, args);
            String command = String.join(" ", args);
            assertThat(r.code()).as(command + ": " + r.err()).isEqualTo(ExitCode.FAILED.code());
            assertThat(r.errLines()).as(command).hasSize(1);
            assertThat(r.errLines().get(0)).as(command).startsWith("copydesk: ").contains(editor[0])
                    .doesNotContain("Exception", "SQL [", "java.");
            assertThat(r.out()).as(command).isEmpty();
        }
    }

    @Test
    void onlyTheOwnerBacksUpOrRestoresAndOthersAreToldSoInTheCommandsOwnWords() throws Exception {
        String[] supervisor = person("sup", "supervisor");
        Path folder = Files.createDirectories(Path.of("target", "command-frame"));
        Path backup = folder.resolve(prefix + ".backup");
        Files.deleteIfExists(backup);

        Run refused = runAs(supervisor, "backup", backup.toString());
        assertThat(refused.code()).isEqualTo(ExitCode.FAILED.code());
        assertThat(refused.out()).isEmpty();
        assertThat(refused.errLines()).hasSize(1);
        assertThat(refused.errLines().get(0)).contains("'" + supervisor[0] + "' is a supervisor of the newsroom and may not back it up:"
                + " run copydesk backup as the database's owner");
        assertThat(backup).doesNotExist();

        Files.writeString(backup, "not read: the account is refused first");
        Run restore = runAs(supervisor, "restore", backup.toString());
        assertThat(restore.code()).isEqualTo(ExitCode.FAILED.code());
        assertThat(restore.out()).isEmpty();
        assertThat(restore.errLines()).hasSize(1);
        assertThat(restore.errLines().get(0)).contains("may not restore a backup: run copydesk restore as the database's owner");

        // the file is looked at before the database: a missing one is said without reaching it
        Run missing = nowhere("restore", folder.resolve("missing.backup").toString());
        assertThat(missing.code()).isEqualTo(ExitCode.FAILED.code());
        assertThat(missing.errLines()).containsExactly("copydesk: No such file: " + folder.resolve("missing.backup"));
    }

    @Test
    void aConnectionLostUnderACommandIsOneLineAndExitCode1() throws Exception {
        // desks set-lease is not repeated after a lost connection (CliConnectionLossTest shows editors set-capacity, in its own JVM)
        try (Connection root = db.endpoint().adminConnection()) {
            root.setCatalog(db.name());
            root.setAutoCommit(false);
            try (Statement s = root.createStatement()) {
                s.executeQuery("SELECT id FROM desk WHERE id = 'culture' FOR UPDATE").close();
                CompletableFuture<Run> command = CompletableFuture.supplyAsync(() -> run("desks", "set-lease", "culture", "20m"));
                s.execute("KILL CONNECTION " + waitingConnection(s, command));
                root.rollback();
                Run r = command.get(90, TimeUnit.SECONDS);
                assertThat(r.code()).isEqualTo(ExitCode.FAILED.code());
                assertThat(r.errLines()).hasSize(1);
                assertThat(r.errLines().get(0)).startsWith("copydesk: The connection to the database was lost")
                        .doesNotContain("SQL", "Exception", "Communications link failure");
            }
        }
    }

    /** The command's connection, once it waits for the row root holds. */
    private long waitingConnection(Statement root, CompletableFuture<Run> command) throws SQLException, InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < until && !command.isDone()) {
            try (ResultSet rs = root.executeQuery("SELECT id FROM information_schema.processlist WHERE db = '" + db.name()
                    + "' AND command = 'Query' AND id <> CONNECTION_ID() AND info LIKE 'update%desk%'")) {
                if (rs.next()) {
                    return rs.getLong(1);
                }
            }
            Thread.sleep(50);
        }
        throw new AssertionError("the command never waited for the desk's row: " + (command.isDone() ? command.join() : "still running"));
    }

    @Test
    void aDatabaseThatStaysBusyIsSaidInPlainWordsNotTheRetryLoopsAccount() {
        // before: "claim met a conflict on each of its 5 attempts" (the log's words)
        DatabaseBusyException busy = new DatabaseBusyException("claim met a conflict on each of its 5 attempts",
                new SQLException("Deadlock found when trying to get lock; try restarting transaction", "40001", 1213));
        assertThat(Cli.message(busy)).isEqualTo("The database is busy; this did not go through. Try again.");
    }
}
