package org.copydesk.db;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.Properties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code run/server.properties}: port, pid, bind address and mode of the embedded server that runs
 * from a folder, and the process that owns its life ({@code copydesk server}, or the desktop client
 * that started it). Written once the server is ready, deleted by an orderly shutdown; a crashed
 * server leaves it behind, naming a pid that is gone.
 *
 * @param owner     pid of the process that started (or adopted) the server; 0 when not known (a run
 *                  file of an older Copydesk)
 * @param ownerSince when that process started, so that a pid reused after a crash is not taken for it
 */
record RunFile(int port, long pid, String bindAddress, EmbeddedServer.Mode mode, long owner, Instant ownerSince) {

    private static final Logger log = LoggerFactory.getLogger(RunFile.class);
    private static final String NAME = "server.properties";

    /** A run file naming this process as the owner. */
    RunFile(int port, long pid, String bindAddress, EmbeddedServer.Mode mode) {
        this(port, pid, bindAddress, mode, ProcessHandle.current().pid(),
                ProcessHandle.current().info().startInstant().orElse(null));
    }

    /** The same server, owned from now on by this process in {@code newMode}. */
    RunFile adoptedBy(EmbeddedServer.Mode newMode) {
        return new RunFile(port, pid, bindAddress, newMode);
    }

    /**
     * Whether the owning process still runs (the same process: its start time matches). Unknown
     * owners count as alive: better a server left to its admin than one stopped under a live owner.
     */
    boolean ownerAlive() {
        if (owner <= 0) {
            return true;
        }
        Optional<ProcessHandle> process = ProcessHandle.of(owner).filter(ProcessHandle::isAlive);
        if (process.isEmpty()) {
            return false;
        }
        Optional<Instant> started = process.get().info().startInstant();
        return ownerSince == null || started.isEmpty()
                || Duration.between(ownerSince, started.get()).abs().compareTo(Duration.ofSeconds(1)) < 0;
    }

    /** Where a client on this computer reaches the server. */
    String clientHost() {
        return ServerProcess.clientHostFor(bindAddress);
    }

    boolean tls() {
        return !EmbeddedServer.isLoopback(bindAddress);
    }

    static Optional<RunFile> read(Path run) {
        Path file = run.resolve(NAME);
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        Properties p = new Properties();
        try (InputStream in = Files.newInputStream(file)) {
            p.load(in);
            String since = p.getProperty("ownerSince", "");
            return Optional.of(new RunFile(Integer.parseInt(p.getProperty("port")), Long.parseLong(p.getProperty("pid")),
                    p.getProperty("bindAddress", "127.0.0.1"), EmbeddedServer.Mode.valueOf(p.getProperty("mode", "DESKTOP")),
                    Long.parseLong(p.getProperty("owner", "0")), since.isEmpty() ? null : Instant.parse(since)));
        } catch (IOException | RuntimeException e) {
            log.warn("Ignoring an unreadable run file {}: {}", file, e.toString());
            return Optional.empty();
        }
    }

    /** Replaces the run file in one step, so a reader never sees half of it. */
    void write(Path run) throws IOException {
        Properties p = new Properties();
        p.setProperty("port", Integer.toString(port));
        p.setProperty("pid", Long.toString(pid));
        p.setProperty("bindAddress", bindAddress);
        p.setProperty("mode", mode.name());
        p.setProperty("owner", Long.toString(owner));
        p.setProperty("ownerSince", ownerSince == null ? "" : ownerSince.toString());
        Path tmp = run.resolve(NAME + ".tmp");
        try (OutputStream out = Files.newOutputStream(tmp)) {
            p.store(out, "Copydesk embedded server; deleted when it stops");
        }
        Files.move(tmp, run.resolve(NAME), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** Deletes the run file if it names the server {@code pid} (a stale handle must not remove another server's). */
    static void deleteIfItNames(Path run, long pid) throws IOException {
        if (read(run).map(r -> r.pid() == pid).orElse(true)) {
            Files.deleteIfExists(run.resolve(NAME));
        }
        Files.deleteIfExists(run.resolve(STOPPING));
    }

    /** {@code run/stopping}: the pid of a server being shut down in order, written before it is told to stop. */
    private static final String STOPPING = "stopping";

    /** Notes that the server {@code pid} is being stopped on purpose (so its end is not taken for a crash). */
    static void markStopping(Path run, long pid) throws IOException {
        Files.writeString(run.resolve(STOPPING), Long.toString(pid));
    }

    /** Whether the server {@code pid} was stopped on purpose. */
    static boolean stoppedOnPurpose(Path run, long pid) {
        try {
            return Files.readString(run.resolve(STOPPING)).strip().equals(Long.toString(pid));
        } catch (IOException e) {
            return false;
        }
    }
}
