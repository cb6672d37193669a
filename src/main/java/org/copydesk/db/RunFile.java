package org.copydesk.db;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;
import java.util.Properties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code run/server.properties}: port, pid, bind address and mode of the embedded server that runs
 * from a folder. Written once the server is ready, deleted by an orderly shutdown; a crashed server
 * leaves it behind, naming a pid that is gone.
 */
record RunFile(int port, long pid, String bindAddress, EmbeddedServer.Mode mode) {

    private static final Logger log = LoggerFactory.getLogger(RunFile.class);
    private static final String NAME = "server.properties";

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
            return Optional.of(new RunFile(Integer.parseInt(p.getProperty("port")), Long.parseLong(p.getProperty("pid")),
                    p.getProperty("bindAddress", "127.0.0.1"), EmbeddedServer.Mode.valueOf(p.getProperty("mode", "DESKTOP"))));
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
    }
}
