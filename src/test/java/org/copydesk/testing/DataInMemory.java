package org.copydesk.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Optional;
import java.util.stream.Stream;
import org.copydesk.db.EmbeddedServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded test server's data folder in memory (a tmpfs: /dev/shm) where the machine has one.
 * Each test class creates and drops a database of its own, which makes and syncs dozens of files:
 * on a busy disk that was most of a class's set-up (a migrated database made and dropped, same
 * machine and load: 5.2–6.8 s with the data on disk, 1.4–1.8 s in memory). The server, its
 * settings and binaries are the product's own; only the disk under its data differs.
 * {@code -Dcopydesk.test.dataOnDisk=true} keeps the data on disk.
 */
final class DataInMemory {

    private static final Logger log = LoggerFactory.getLogger(DataInMemory.class);
    private static final Path TMPFS = Path.of("/dev/shm");
    /** Room the three forks' servers need with some to spare (system tables and the test databases). */
    private static final long ROOM = 2L << 30;

    private DataInMemory() {
    }

    /**
     * Puts {@code folder}'s {@code data} in memory, unless a server runs from the folder already (it
     * is used as it is) or there is no tmpfs with room; returns the folder in memory, to drop once
     * the server is gone.
     */
    static Optional<Path> link(Path folder) {
        Path data = folder.toAbsolutePath().resolve("data");
        try {
            if (Boolean.getBoolean("copydesk.test.dataOnDisk") || !Files.isDirectory(TMPFS) || !Files.isWritable(TMPFS)
                    || Files.getFileStore(TMPFS).getUsableSpace() < ROOM || EmbeddedServer.findRunning(folder).isPresent()) {
                return Optional.empty();
            }
            Path memory = TMPFS.resolve("copydesk-test-" + Integer.toHexString(data.toString().hashCode()));
            if (Files.isSymbolicLink(data) && Files.readSymbolicLink(data).equals(memory) && Files.isDirectory(memory)) {
                return Optional.of(memory);
            }
            deleteTree(data); // an earlier run's, on disk or linked to memory that is gone: the tests make what they need
            deleteTree(memory); // an earlier run's whose server outlived its JVM: its root password is not this folder's
            Files.createDirectories(memory);
            Files.createDirectories(folder);
            Files.createSymbolicLink(data, memory);
            return Optional.of(memory);
        } catch (IOException | UnsupportedOperationException e) {
            log.info("The test server's data stays on disk: {}", e.toString());
            return Optional.empty();
        }
    }

    /** Drops the data in memory once no server runs from {@code folder} (one still running keeps it). */
    static void drop(Path folder, Path memory) {
        long until = System.nanoTime() + 10_000_000_000L; // a server shutting down answers for a moment still
        while (EmbeddedServer.findRunning(folder).isPresent() && System.nanoTime() < until) {
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        if (EmbeddedServer.findRunning(folder).isEmpty()) {
            try {
                deleteTree(memory);
            } catch (IOException e) {
                log.warn("Could not remove the test server's data in {}: {}", memory, e.toString());
            }
        }
    }

    private static void deleteTree(Path root) throws IOException {
        if (Files.isSymbolicLink(root)) {
            Files.delete(root);
            return;
        }
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
