package org.copydesk.review.imports;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

/**
 * Which files of a folder some process has open for writing, where the system lets us ask. On
 * Linux, {@code /proc/PID/fd} names every file a process has open and {@code /proc/PID/fdinfo} how
 * (read, write); the processes this service may inspect are its own user's (all of them when it
 * runs as root), so a writer running under another account is not seen and the quiet period alone
 * protects against it. Elsewhere nothing is reported here: on Windows the move into
 * {@code processing/} itself fails while a program holds the file open, which the drop folder
 * treats the same way (looks again later).
 */
interface OpenWriters {

    OpenWriters NONE = folder -> Set.of();

    /** Files directly in {@code folder} (its real path) that a visible process has open for writing. */
    Set<Path> openForWriting(Path folder);

    static OpenWriters forThisSystem() {
        return Files.isDirectory(Path.of("/proc/self/fd")) ? new ProcScan(Path.of("/proc")) : NONE;
    }

    /** Linux: every visible process's open files. */
    final class ProcScan implements OpenWriters {

        private static final int ACCESS_MODE = 3; // O_ACCMODE: 0 read only, 1 write only, 2 read and write
        private final Path proc;

        ProcScan(Path proc) {
            this.proc = proc;
        }

        @Override
        public Set<Path> openForWriting(Path folder) {
            Set<Path> writing = new HashSet<>();
            try (DirectoryStream<Path> processes = Files.newDirectoryStream(proc, p -> p.getFileName().toString().matches("[0-9]+"))) {
                for (Path process : processes) {
                    scan(process, folder, writing);
                }
            } catch (IOException e) {
                return writing; // /proc unreadable: nothing seen
            }
            return writing;
        }

        private static void scan(Path process, Path folder, Set<Path> writing) {
            try (DirectoryStream<Path> descriptors = Files.newDirectoryStream(process.resolve("fd"))) {
                for (Path fd : descriptors) {
                    Path target;
                    try {
                        target = Files.readSymbolicLink(fd);
                    } catch (IOException | UnsupportedOperationException e) {
                        continue; // closed meanwhile
                    }
                    if (folder.equals(target.getParent()) && writes(process.resolve("fdinfo").resolve(fd.getFileName()))) {
                        writing.add(target);
                    }
                }
            } catch (IOException | SecurityException e) {
                // another user's process, or one that ended: not ours to see
            }
        }

        private static boolean writes(Path fdinfo) {
            try {
                for (String line : Files.readAllLines(fdinfo)) {
                    if (line.startsWith("flags:")) {
                        return (Integer.parseInt(line.substring("flags:".length()).strip(), 8) & ACCESS_MODE) != 0;
                    }
                }
            } catch (IOException | NumberFormatException e) {
                return false;
            }
            return false;
        }
    }
}
