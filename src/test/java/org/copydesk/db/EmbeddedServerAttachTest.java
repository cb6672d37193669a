package org.copydesk.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A second Copydesk process on the same computer attaches to the running embedded server instead of
 * starting another, and the server lives exactly as long as some process is attached. The second
 * process is a real, separate JVM ({@link EmbeddedServerProbe}).
 */
class EmbeddedServerAttachTest {

    /** Only a guard against a hung child; no assertion depends on how long anything takes. */
    private static final long HANG_GUARD_SECONDS = 180;

    private Path folder;
    private EmbeddedServer first;
    private final List<Probe> probes = new ArrayList<>();

    @BeforeEach
    void startFirst() {
        folder = EmbeddedServerTestFolders.fresh().resolve("server");
        first = EmbeddedServer.startOrAttach(new EmbeddedServer.Options(folder, "127.0.0.1", 0,
                EmbeddedServer.Mode.DESKTOP, Duration.ofSeconds(90)));
        assertThat(first.startedHere()).isTrue();
    }

    @AfterEach
    void cleanUp() {
        probes.forEach(Probe::destroy);
        first.close();
        EmbeddedServerTestFolders.stopLeftovers(folder);
    }

    @Test
    void aSecondProcessAttachesAndTheServerStopsWhenTheFirstClosesLast() throws Exception {
        ProcessHandle server = ProcessHandle.of(first.serverPid()).orElseThrow();

        Probe second = Probe.launch(folder, probes);
        second.expect("attached port=" + first.port() + " pid=" + first.serverPid() + " self=" + second.pid());
        assertThat(first.otherClients()).as("attached processes seen by the first").containsExactly(second.pid());
        second.command("query", "query ok 42");

        second.command("close", "closed");
        assertThat(second.exitCode()).isZero();

        // The first process is still attached, so the server must keep running and answering.
        assertThat(server.isAlive()).as("server after the second process quit").isTrue();
        assertThat(first.otherClients()).isEmpty();
        assertThat(answer(folder, first.port())).isEqualTo(42);

        first.close();
        assertThat(server.isAlive()).as("server after the last process closed").isFalse();
        assertThat(EmbeddedServer.findRunning(folder)).isEmpty();
    }

    @Test
    void theServerOutlivesTheProcessThatStartedItWhileAnotherIsAttached() throws Exception {
        ProcessHandle server = ProcessHandle.of(first.serverPid()).orElseThrow();
        Probe second = Probe.launch(folder, probes);
        second.expect("attached port=" + first.port());

        first.close(); // the window that started the server closes first

        assertThat(server.isAlive()).as("server while the second process is attached").isTrue();
        second.command("query", "query ok 42");

        second.command("close", "closed");
        assertThat(second.exitCode()).isZero();
        // The server is a child of this JVM: wait for its exit to be reaped, then check it is gone.
        server.onExit().get(HANG_GUARD_SECONDS, TimeUnit.SECONDS);
        assertThat(server.isAlive()).isFalse();
        assertThat(EmbeddedServer.findRunning(folder)).isEmpty();
    }

    @Test
    void aProcessThatDiedWithoutDetachingDoesNotKeepTheServerAlive() throws Exception {
        ProcessHandle server = ProcessHandle.of(first.serverPid()).orElseThrow();
        Probe second = Probe.launch(folder, probes);
        second.expect("attached port=" + first.port());

        second.command("vanish", "vanishing");
        second.exitCode();
        assertThat(folder.resolve("run").resolve("clients").resolve(Long.toString(second.pid())))
                .as("a crashed client leaves its file behind").exists();
        assertThat(server.isAlive()).isTrue();
        assertThat(first.otherClients()).as("dead processes do not count as attached").isEmpty();

        first.close();
        assertThat(server.isAlive()).as("server after the last live process closed").isFalse();
    }

    @Test
    void aDeadClientsPidReusedByAnotherProcessDoesNotKeepTheServerAlive() throws Exception {
        ProcessHandle server = ProcessHandle.of(first.serverPid()).orElseThrow();
        // An unrelated live process now has the pid a crashed client registered earlier.
        Process unrelated = new ProcessBuilder("sleep", "120").start();
        try {
            Path file = folder.resolve("run").resolve("clients").resolve(Long.toString(unrelated.pid()));
            java.nio.file.Files.writeString(file, "started=2020-01-01T00:00:00Z\njava -jar copydesk.jar");
            assertThat(first.otherClients()).as("a pid started at another time is another process").isEmpty();

            // the same pid registered with its real start time is a live client
            java.nio.file.Files.writeString(file, "started=" + unrelated.info().startInstant().orElseThrow() + "\nx");
            assertThat(first.otherClients()).containsExactly(unrelated.pid());
            java.nio.file.Files.writeString(file, "started=2020-01-01T00:00:00Z\nx");

            first.close();
            assertThat(server.isAlive()).as("server after the last real client closed").isFalse();
        } finally {
            unrelated.destroyForcibly();
        }
    }

    @Test
    void twoHandlesInOneProcessKeepTheServerUntilTheLastCloses() throws Exception {
        ProcessHandle server = ProcessHandle.of(first.serverPid()).orElseThrow();
        Path clientFile = folder.resolve("run").resolve("clients").resolve(Long.toString(ProcessHandle.current().pid()));
        EmbeddedServer again = EmbeddedServer.startOrAttach(new EmbeddedServer.Options(folder, "127.0.0.1", 0,
                EmbeddedServer.Mode.DESKTOP, Duration.ofSeconds(90)));
        assertThat(again.startedHere()).isFalse();

        first.close(); // e.g. a command's handle, while the sign-in's stays open
        assertThat(server.isAlive()).as("server while another handle of this process is attached").isTrue();
        assertThat(clientFile).as("this process is still a client").exists();
        assertThat(answer(folder, again.port())).isEqualTo(42);

        again.close();
        server.onExit().get(HANG_GUARD_SECONDS, TimeUnit.SECONDS);
        assertThat(clientFile).doesNotExist();
        assertThat(EmbeddedServer.findRunning(folder)).isEmpty();
    }

    @Test
    void aHandleLeftOpenAfterItsServerWasStoppedDoesNotKeepTheNextServerUp() throws Exception {
        // as `copydesk server --stop` does from elsewhere: `first` is never closed
        EmbeddedServer.findRunning(folder).orElseThrow().shutdown();

        EmbeddedServer next = EmbeddedServer.startOrAttach(new EmbeddedServer.Options(folder, "127.0.0.1", 0,
                EmbeddedServer.Mode.DESKTOP, Duration.ofSeconds(90)));
        assertThat(next.startedHere()).isTrue();
        ProcessHandle server = ProcessHandle.of(next.serverPid()).orElseThrow();

        next.close();
        server.onExit().get(HANG_GUARD_SECONDS, TimeUnit.SECONDS);
        assertThat(EmbeddedServer.findRunning(folder)).isEmpty();
        first.close(); // late: must not touch anything of the next server's
        assertThat(folder.resolve("run").resolve("clients").resolve(Long.toString(ProcessHandle.current().pid())))
                .doesNotExist();
    }

    @Test
    void aSecondProcessStartsTheServerWhenNoneIsRunning() throws Exception {
        first.close();
        assertThat(EmbeddedServer.findRunning(folder)).isEmpty();

        Probe second = Probe.launch(folder, probes);
        String hello = second.expect("started port=");
        long pid = Long.parseLong(hello.replaceAll(".* pid=(\\d+) .*", "$1"));
        ProcessHandle server = ProcessHandle.of(pid).orElseThrow();

        second.command("close", "closed");
        assertThat(second.exitCode()).isZero();
        server.onExit().get(HANG_GUARD_SECONDS, TimeUnit.SECONDS);
        assertThat(EmbeddedServer.findRunning(folder)).isEmpty();
    }

    private static int answer(Path folder, int port) throws SQLException {
        try (Connection c = RootSecret.rootConnection(folder, "127.0.0.1", port, 5); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT 6 * 7")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    /** The probe JVM, its answers (lines starting with {@link EmbeddedServerProbe#PREFIX}) and full output. */
    private static final class Probe {
        private final Process process;
        private final Writer stdin;
        private final BlockingQueue<String> answers = new LinkedBlockingQueue<>();
        private final StringBuffer output = new StringBuffer();

        private Probe(Process process) {
            this.process = process;
            this.stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
            Thread reader = new Thread(this::readOutput, "probe-" + process.pid());
            reader.setDaemon(true);
            reader.start();
        }

        static Probe launch(Path folder, List<Probe> registry) throws IOException {
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            List<String> command = List.of(java,
                    "-cp", System.getProperty("java.class.path"),
                    "-Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir"),
                    EmbeddedServerProbe.class.getName(), folder.toString());
            Probe probe = new Probe(new ProcessBuilder(command).redirectErrorStream(true).start());
            registry.add(probe);
            return probe;
        }

        long pid() {
            return process.pid();
        }

        /** Waits for the next answer and checks that it starts with {@code expected}. */
        String expect(String expected) throws InterruptedException {
            String answer = answers.poll(HANG_GUARD_SECONDS, TimeUnit.SECONDS);
            if (answer == null) {
                fail("The probe gave no answer (expected '" + expected + "'). Its output:\n" + output);
            }
            assertThat(answer).as("probe output:\n" + output).startsWith(expected);
            return answer;
        }

        void command(String command, String expectedAnswer) throws IOException, InterruptedException {
            stdin.write(command + "\n");
            stdin.flush();
            expect(expectedAnswer);
        }

        int exitCode() throws InterruptedException {
            if (!process.waitFor(HANG_GUARD_SECONDS, TimeUnit.SECONDS)) {
                fail("The probe did not exit. Its output:\n" + output);
            }
            return process.exitValue();
        }

        void destroy() {
            process.destroyForcibly();
        }

        private void readOutput() {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = r.readLine(); line != null; line = r.readLine()) {
                    output.append(line).append('\n');
                    if (line.startsWith(EmbeddedServerProbe.PREFIX)) {
                        answers.add(line.substring(EmbeddedServerProbe.PREFIX.length()));
                    }
                }
            } catch (IOException e) {
                output.append("(reading stopped: ").append(e).append(")\n");
            }
        }
    }
}
