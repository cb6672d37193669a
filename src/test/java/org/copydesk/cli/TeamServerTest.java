package org.copydesk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.copydesk.db.DataSources;
import org.copydesk.db.Database;
import org.copydesk.db.DatabaseConfig;
import org.copydesk.db.EmbeddedServer;
import org.copydesk.review.DemoNewsroom;
import org.copydesk.review.SignIn;
import org.copydesk.testing.ChildJvm;
import org.copydesk.ui.app.Launcher;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code copydesk server} as a service runs it: an empty newsroom unless asked for the demo, a
 * restart after {@code kill -9} that gets a server (not "already running"), a non-zero exit when
 * the database dies under it, and the demo's articles and people taken out again.
 */
class TeamServerTest {

    private CommandRunner copydesk;

    @BeforeEach
    void freshHome() {
        copydesk = CommandRunner.freshHome();
    }

    @AfterEach
    void stopWhateverIsLeft() {
        copydesk.close();
    }

    @Test
    void aTeamServerStartsEmptyAndADesktopAttachingToItLoadsNoDemo() throws Exception {
        CompletableFuture<CommandRunner.Run> serving = copydesk.serve();
        assertThat(serving.isDone()).as("serving: " + (serving.isDone() ? serving.get().err() : "")).isFalse();
        assertThat(counts()).as("desks, people, articles").containsExactly(0, 0, 0);

        // the desktop app's first start on this computer attaches to the team's server: no demo there
        SignIn.prepare(DatabaseConfig.embedded(), copydesk.dirs()).close();
        assertThat(counts()).as("after a desktop attached").containsExactly(0, 0, 0);
        assertThat(copydesk.run("server", "--demo", "--bind", "0.0.0.0").err()).as("a demo beyond this computer")
                .contains("--demo makes accounts with published passwords");
        // a second one is refused as every command's failure is: one line on stderr (it was on stdout), exit code 1
        CommandRunner.Run second = copydesk.run("server");
        assertThat(second.code()).isEqualTo(1);
        assertThat(second.out()).isEmpty();
        assertThat(second.err().strip()).startsWith("copydesk: The embedded server is already running on port").hasLineCount(1);

        assertThat(copydesk.run("server", "--stop").code()).isZero();
        assertThat(serving.get(60, TimeUnit.SECONDS).code()).isZero();
        // a desktop that starts the server itself later still knows it is a team's data
        SignIn desktop = SignIn.prepare(DatabaseConfig.embedded(), copydesk.dirs());
        try {
            assertThat(counts()).as("a desktop starting the team's server").containsExactly(0, 0, 0);
        } finally {
            desktop.close();
        }
    }

    @Test
    void theDemoComesOnlyWithDemoAndGoesWithWithdrawAndEditorsRemove() throws Exception {
        CompletableFuture<CommandRunner.Run> serving = copydesk.serve("--demo");
        assertThat(counts()).containsExactly(5, 6, DemoNewsroom.ARTICLES);
        assertThat(DemoNewsroom.accountsStillOnDemoPasswords(userUrl())).containsExactlyElementsOf(DemoNewsroom.DEMO_ACCOUNTS);

        CommandRunner.Run claimed = copydesk.run("claim", "--as", "ann");
        assertThat(claimed.out()).as(claimed.err()).contains("ann holds 5 of 5");
        CommandRunner.Run removed = copydesk.run("editors", "remove", "ann", "bob", "cat", "dan", "sue", "admin");
        assertThat(removed.code()).as(removed.err()).isZero();
        assertThat(removed.out()).contains("Removed Ann Kowalski (ann)", "5 article(s) they held went back");
        assertThat(DemoNewsroom.accountsStillOnDemoPasswords(userUrl())).as("no demo account signs in").isEmpty();
        try (Database admin = root()) {
            assertThat(admin.dsl().fetchCount(DSL.table("article"), DSL.field("locked_by").eq("ann"))).isZero();
            assertThat(admin.dsl().fetchCount(DSL.table("lease_event"), DSL.field("actor").eq("ann")))
                    .as("ann's history stays").isPositive();
            assertThat(admin.dsl().fetchOne("select capacity from editor where id = 'ann'").get(0, Integer.class)).isZero();
        }
        assertThat(copydesk.run("editors", "list").out()).contains("Ann Kowalski");

        CommandRunner.Run withdrawn = copydesk.run("withdraw", "--demo");
        assertThat(withdrawn.out()).as(withdrawn.err()).contains("Withdrew " + DemoNewsroom.ARTICLES + " article(s)");
        assertThat(counts()).containsExactly(5, 6, 0);
        try (Database admin = root()) {
            assertThat(admin.dsl().fetchCount(DSL.table("lease_event"), DSL.field("resource").eq("article")))
                    .as("the withdrawn articles' history").isZero();
        }
        assertThat(copydesk.run("withdraw", "999999").err()).contains("No article 999999; nothing was withdrawn.");

        assertThat(copydesk.run("server", "--stop").code()).isZero();
        assertThat(serving.get(60, TimeUnit.SECONDS).code()).isZero();
    }

    @Test
    void aServerCommandKilledWithSigkillLeavesADatabaseTheNextOneAdopts() throws Exception {
        Path log = copydesk.serverFolder().resolveSibling("killed-server.log");
        Process first = ChildJvm.start(Launcher.class, List.of("-Dcopydesk.home=" + copydesk.dirs().home()), List.of("server"), log);
        long until = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (!Files.readString(log).contains("Ctrl-C stops it") && first.isAlive() && System.nanoTime() < until) {
            Thread.sleep(200);
        }
        EmbeddedServer left = copydesk.running().orElseThrow(() -> new AssertionError("not serving: " + readQuietly(log)));
        long database = left.serverPid();
        first.destroyForcibly().waitFor(30, TimeUnit.SECONDS); // kill -9
        assertThat(ProcessHandle.of(database).map(ProcessHandle::isAlive)).as("the database outlives its owner").contains(true);

        CompletableFuture<CommandRunner.Run> again = copydesk.serve();
        assertThat(again.isDone()).as("the next copydesk server runs: " + (again.isDone() ? again.get().out() + again.get().err() : ""))
                .isFalse();
        assertThat(copydesk.running().orElseThrow().serverPid()).as("the same database, adopted").isEqualTo(database);

        assertThat(copydesk.run("server", "--stop").code()).isZero();
        assertThat(again.get(60, TimeUnit.SECONDS).code()).isZero();
        assertThat(ProcessHandle.of(database).map(ProcessHandle::isAlive).orElse(false)).isFalse();
    }

    @Test
    void aDatabaseThatDiesUnderServerEndsItWithANonZeroExitSoAServiceManagerRestartsIt() throws Exception {
        CompletableFuture<CommandRunner.Run> serving = copydesk.serve();
        long database = copydesk.running().orElseThrow().serverPid();
        ProcessHandle.of(database).orElseThrow().destroyForcibly();

        CommandRunner.Run ended = serving.get(60, TimeUnit.SECONDS);
        assertThat(ended.code()).isEqualTo(1);
        assertThat(ended.err()).contains("The embedded server stopped unexpectedly");

        CompletableFuture<CommandRunner.Run> restarted = copydesk.serve();
        assertThat(restarted.isDone()).as("a restart serves again").isFalse();
        assertThat(copydesk.run("server", "--status").out()).contains("started by copydesk server");
        assertThat(copydesk.run("server", "--stop").code()).isZero();
        assertThat(restarted.get(60, TimeUnit.SECONDS).code()).isZero();
        assertThat(copydesk.run("server", "--status").code()).isEqualTo(ExitCode.NOT_RUNNING.code());
        // what the services run before they start: wait for the team server, unless another database is configured
        assertThat(copydesk.run("server", "--status", "--wait", "1s").code()).isEqualTo(ExitCode.NOT_RUNNING.code());
        CommandRunner.Run elsewhere = copydesk.run(java.util.Map.of(org.copydesk.db.DatabaseConfigResolver.URL_ENV,
                "jdbc:mysql://db.newsroom.example:3306/copydesk"), "server", "--status", "--wait", "2m");
        assertThat(elsewhere.code()).isZero();
        assertThat(elsewhere.out()).contains("db.newsroom.example", "no embedded server to wait for");
    }

    /** Desks, people and articles in the team's database. */
    private List<Integer> counts() {
        try (Database admin = root()) {
            return List.of(admin.dsl().fetchCount(DSL.table("desk")), admin.dsl().fetchCount(DSL.table("editor")),
                    admin.dsl().fetchCount(DSL.table("article")));
        }
    }

    private Database root() {
        EmbeddedServer server = copydesk.running().orElseThrow();
        return Database.open(server.jdbcUrl(Database.EMBEDDED_SCHEMA), EmbeddedServer.ROOT_USER, server.rootPassword(), null,
                DataSources.PoolSize.of(1), Database.SchemaAction.NONE, null);
    }

    private String userUrl() {
        return copydesk.running().orElseThrow().userJdbcUrl(Database.EMBEDDED_SCHEMA);
    }

    private static String readQuietly(Path file) {
        try {
            return Files.readString(file);
        } catch (java.io.IOException e) {
            return e.toString();
        }
    }
}
