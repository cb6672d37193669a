package org.copydesk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.copydesk.db.DatabaseConfigResolver;
import org.copydesk.review.Newsroom;
import org.copydesk.review.Role;
import org.copydesk.testing.ChildJvm;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.TestDatabase;
import org.copydesk.ui.app.Launcher;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A command whose database connection is killed under it ({@code KILL CONNECTION} from root while
 * the command waits on a row lock root holds), run as people run it: its own JVM, the shipped
 * logging configuration, the terminal's output read back. A claim is safe to repeat: it is run
 * again on a fresh connection and succeeds. Setting a capacity is not retried: the terminal gets
 * one plain line, no stack trace, no SQL, no pool warning.
 */
@ExtendWith(DatabaseExtension.class)
class CliConnectionLossTest {

    private final TestDatabase db;

    CliConnectionLossTest(TestDatabase db) {
        this.db = db;
        Newsroom newsroom = new Newsroom(db.dsl());
        if (newsroom.editor("cutter").isEmpty()) {
            newsroom.addDesk("cut", "Cut", Duration.ofMinutes(30));
            newsroom.addEditor("cutter", "Cut Connection", Role.EDITOR, 2, List.of("cut"));
            Fixtures.articles(db.dsl(), "cut", 6, 3, -60);
        }
    }

    @Test
    void aClaimWhoseConnectionIsKilledIsRunAgainAndSucceeds() throws Exception {
        Terminal t = runWithConnectionKilled("claim", "--as", "cutter");
        assertThat(t.exitCode()).as(t.output()).isZero();
        assertThat(t.lines()).as("the claim's normal output only").first().asString().startsWith("cutter holds 2 of 2");
        assertThat(t.output()).doesNotContain("WARN", "ERROR", "Exception", "SQL [", "\tat ");
    }

    @Test
    void aCommandThatIsNotRetriedSaysSoInOnePlainLine() throws Exception {
        Terminal t = runWithConnectionKilled("editors", "set-capacity", "cutter", "3");
        assertThat(t.exitCode()).isEqualTo(1);
        assertThat(t.lines()).as("the whole terminal output").hasSize(1);
        assertThat(t.lines().get(0)).startsWith("copydesk: The connection to the database was lost")
                .doesNotContain("SQL", "Exception", "Communications link failure", "call ");
    }

    record Terminal(int exitCode, String output) {
        List<String> lines() {
            return output.lines().filter(l -> !l.isBlank()).toList();
        }
    }

    /** Runs the command in its own JVM while root holds the editor's row, kills its connection once it waits, then lets go. */
    private Terminal runWithConnectionKilled(String... command) throws Exception {
        Path log = Path.of("target", "cli-connection-loss", command[0] + "-" + System.nanoTime() + ".log");
        List<String> args = new java.util.ArrayList<>(List.of(command));
        args.addAll(List.of("--db-url", db.endpoint().accountUrl(db.name()), "--db-user", db.endpoint().user()));
        try (Connection root = db.endpoint().adminConnection()) {
            root.setCatalog(db.name());
            root.setAutoCommit(false);
            try (Statement s = root.createStatement()) {
                s.executeQuery("SELECT id FROM editor WHERE id = 'cutter' FOR UPDATE").close();
                Process p = ChildJvm.start(Launcher.class,
                        List.of("-Dlogback.configurationFile=" + Path.of("target", "classes", "logback.xml").toAbsolutePath()),
                        args, Map.of(DatabaseConfigResolver.PASSWORD_ENV, db.endpoint().password()), log);
                try {
                    long victim = waitingConnection(s, p);
                    s.execute("KILL CONNECTION " + victim);
                    root.rollback();
                    assertThat(p.waitFor(90, TimeUnit.SECONDS)).as("the command ended").isTrue();
                    return new Terminal(p.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
                } finally {
                    p.destroyForcibly();
                }
            }
        }
    }

    /** The command's connection, once it waits for root's lock (it starts a JVM first: seconds). */
    private long waitingConnection(Statement root, Process command) throws SQLException, InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < until && command.isAlive()) {
            try (ResultSet rs = root.executeQuery("SELECT id FROM information_schema.processlist WHERE db = '" + db.name()
                    + "' AND command = 'Query' AND id <> CONNECTION_ID() AND (info LIKE '%editor%' OR info LIKE '%claim%')")) {
                if (rs.next()) {
                    return rs.getLong(1);
                }
            }
            Thread.sleep(50);
        }
        throw new AssertionError("the command never waited for the editor's row (alive: " + command.isAlive() + ")");
    }
}
