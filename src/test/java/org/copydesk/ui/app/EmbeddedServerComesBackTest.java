package org.copydesk.ui.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.copydesk.db.EmbeddedServer;
import org.copydesk.db.EmbeddedServerProbe;
import org.copydesk.review.ReviewSession;
import org.copydesk.testing.ChildJvm;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A window keeps working when the embedded server dies under it. The app's own path
 * (SignIn.prepare on the embedded default, a person's session, the reconnect probe's call) runs
 * against a real server whose {@code mariadbd} this test kills. Before the fix the pool retried the
 * dead port for good and nobody restarted the server.
 */
class EmbeddedServerComesBackTest {

    /** Only a guard against a hang; the recovery itself takes a pool timeout (5 s) and a server start. */
    private static final Duration GUARD = Duration.ofSeconds(120);

    private OwnDemoServer server;
    private Path serverFolder;
    private ReviewSession session;
    private Process otherWindow;

    @BeforeEach
    void signInAsTheAppDoes() {
        server = OwnDemoServer.start();
        serverFolder = server.serverFolder();
        session = server.ann();
    }

    @AfterEach
    void closeAll() {
        if (otherWindow != null) {
            otherWindow.destroyForcibly();
        }
        if (server != null) {
            server.close();
        }
    }

    @Test
    void theWindowThatOwnsTheServerStartsItAgainAndCarriesOn() throws Exception {
        List<Long> held = session.queue().claim("ann").articles().stream().map(a -> a.id()).toList();
        assertThat(held).as("demo articles to hold").isNotEmpty();
        EmbeddedServer before = EmbeddedServer.findRunning(serverFolder).orElseThrow();
        kill(before.serverPid());

        untilTheProbeWorks();

        EmbeddedServer after = EmbeddedServer.findRunning(serverFolder).orElseThrow(
                () -> new AssertionError("nobody started the embedded server again"));
        assertThat(after.serverPid()).as("a new server process").isNotEqualTo(before.serverPid());
        assertThat(ProcessHandle.of(after.serverPid()).flatMap(ProcessHandle::parent).map(ProcessHandle::pid))
                .as("started by this window (this JVM)").contains(ProcessHandle.current().pid());
        assertThat(session.queue().held("ann").stream().map(a -> a.id()).toList())
                .as("what the person held before the crash, read through the same session").containsExactlyInAnyOrderElementsOf(held);
    }

    @Test
    void aServerAnotherWindowStartedOnAnotherPortIsFound() throws Exception {
        EmbeddedServer before = EmbeddedServer.findRunning(serverFolder).orElseThrow();
        kill(before.serverPid());
        Path log = serverFolder.getParent().resolve("other-window.log");
        Files.deleteIfExists(log);
        otherWindow = ChildJvm.start(EmbeddedServerProbe.class, List.of(serverFolder.toString()), log);
        String hello = awaitLine(log, "PROBE started port=");
        int port = Integer.parseInt(hello.replaceAll(".*port=(\\d+).*", "$1"));
        long pid = Long.parseLong(hello.replaceAll(".* pid=(\\d+) .*", "$1"));

        untilTheProbeWorks();

        EmbeddedServer now = EmbeddedServer.findRunning(serverFolder).orElseThrow();
        assertThat(now.serverPid()).as("the other window's server, not a second one").isEqualTo(pid);
        assertThat(now.port()).isEqualTo(port).isNotEqualTo(before.port());
        assertThat(session.database().dataSource().unwrap(HikariDataSource.class).getJdbcUrl())
                .as("the window's pool now points at the new port").contains(":" + port + "/");
    }

    /** What the editor's reconnect probe does, until it succeeds. */
    private void untilTheProbeWorks() throws InterruptedException {
        long deadline = System.nanoTime() + GUARD.toNanos();
        RuntimeException last = null;
        while (System.nanoTime() < deadline) {
            try {
                session.queue().recordPresence("ann");
                return;
            } catch (RuntimeException e) {
                last = e;
                Thread.sleep(200);
            }
        }
        throw new AssertionError("the window never reached the database again", last);
    }

    /** Kills the server this test's setup started (SIGKILL: a crash, not an orderly stop). */
    private static void kill(long pid) throws Exception {
        ProcessHandle server = ProcessHandle.of(pid).orElseThrow();
        server.destroyForcibly();
        server.onExit().get(GUARD.toSeconds(), TimeUnit.SECONDS);
    }

    private static String awaitLine(Path log, String prefix) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + GUARD.toNanos();
        while (System.nanoTime() < deadline) {
            if (Files.exists(log)) {
                for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
                    if (line.startsWith(prefix)) {
                        return line;
                    }
                }
            }
            Thread.sleep(100);
        }
        throw new AssertionError("no line " + prefix + " in " + log + ":\n" + (Files.exists(log) ? Files.readString(log) : ""));
    }
}
