package org.copydesk.db;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.copydesk.testing.StoppedProcess;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/**
 * An embedded server whose {@code mariadbd} is stopped (SIGSTOP) is alive and answers nothing.
 * The windows' pools ask {@link EmbeddedServer#findAgain} after a connection timed out; it must
 * wait for that server, not start a second one on its data: the second only waited for the
 * first one's file locks (Aria's control file, 30 s) and failed, holding the start lock and the
 * pool's reconnect meanwhile, so a window came back that much later after the server resumed.
 */
@EnabledOnOs(OS.LINUX)
class EmbeddedServerStoppedTest {

    /**
     * Two looks at the server, each waiting up to the administrator connection's 5 s socket
     * timeout, and room for a loaded machine; the futile second server alone took 30 s more.
     */
    private static final long FIND_AGAIN_WITHIN_MILLIS = 20_000;

    private Path serverFolder;
    private EmbeddedServer server;

    @BeforeEach
    void startServer() {
        serverFolder = new AppDirectories(EmbeddedServerTestFolders.fresh()).embeddedServer();
        server = EmbeddedServer.startOrAttach(EmbeddedServer.Options.desktop(serverFolder));
    }

    @AfterEach
    void stopServer() {
        if (server != null) {
            server.close();
        }
        EmbeddedServerTestFolders.stopLeftovers(serverFolder);
    }

    @Test
    void aStoppedServerIsWaitedForNotStartedAgainOnItsData() throws Exception {
        long pid = server.serverPid();
        boolean moved;
        long millis;
        try (StoppedProcess stopped = StoppedProcess.stop(pid)) {
            long started = System.nanoTime();
            moved = server.findAgain();
            millis = (System.nanoTime() - started) / 1_000_000;
            assertThat(stopped.isStopped()).as("still stopped").isTrue();
        }

        assertThat(moved).as("still the same server").isFalse();
        assertThat(millis).as("findAgain on the stopped server took %d ms", millis).isLessThan(FIND_AGAIN_WITHIN_MILLIS);
        assertThat(server.serverPid()).isEqualTo(pid);
        Path binaries = serverFolder.toRealPath();
        assertThat(ProcessHandle.current().children().filter(p -> p.info().command().map(c -> Path.of(c).startsWith(binaries))
                .orElse(false)).map(ProcessHandle::pid)).as("servers this JVM started from %s", serverFolder).containsExactly(pid);
        assertThat(EmbeddedServer.findRunning(serverFolder).map(EmbeddedServer::serverPid)).as("answering again").contains(pid);
    }
}
