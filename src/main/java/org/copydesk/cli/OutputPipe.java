package org.copydesk.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Notices that the reader of this process's standard output is gone ({@code copydesk server | head -1}:
 * head exits after one line). The JVM ignores the broken pipe and its prints fail silently, so a
 * foreground server would otherwise run on, and be left behind, with nobody to read what it says or
 * to stop it. Linux only, from /proc: standard output a pipe, the processes that hold the pipe's
 * reading end are found at the start; when none holds it any more (and no other process that can
 * be seen does), the reader is gone. When no reader can be seen at the start (another user's
 * process, no /proc) nothing is watched: never stop a server on a guess.
 */
final class OutputPipe {

    private static final Path PROC = Path.of("/proc");
    private static final long CHECK_EVERY_MILLIS = 1000;

    private final String pipe;
    private final long self = ProcessHandle.current().pid();

    private OutputPipe(String pipe) {
        this.pipe = pipe;
    }

    /**
     * Standard output's pipe and the processes reading it, found now: before anything is printed,
     * since a reader such as {@code head -1} may be gone the moment it has its line. Empty when
     * there is nothing to watch.
     */
    static java.util.Optional<Watch> ofStandardOutput() {
        String target;
        try {
            target = Files.readSymbolicLink(PROC.resolve("self/fd/1")).toString();
        } catch (IOException | UnsupportedOperationException | SecurityException notLinux) {
            return java.util.Optional.empty();
        }
        if (!target.startsWith("pipe:")) {
            return java.util.Optional.empty(); // a terminal, a file, journald's socket: nothing to watch
        }
        OutputPipe output = new OutputPipe(target);
        Set<Long> readers = output.readers();
        return readers.isEmpty() ? java.util.Optional.empty() : java.util.Optional.of(new Watch(output, readers));
    }

    /** A pipe and its readers as found at the start. */
    record Watch(OutputPipe output, Set<Long> readersAtStart) {
        /** Runs {@code whenGone} once, on a daemon thread, when the pipe has no reader left (at once if it has none now). */
        void whenReaderGone(Runnable whenGone) {
            Thread watch = new Thread(() -> output.watch(readersAtStart, whenGone), "output-pipe-watch");
            watch.setDaemon(true);
            watch.start();
        }
    }

    private void watch(Set<Long> readersAtStart, Runnable whenGone) {
        Set<Long> known = readersAtStart;
        try {
            while (true) {
                if (known.stream().anyMatch(this::holdsReadingEnd)) {
                    Thread.sleep(CHECK_EVERY_MILLIS);
                    continue;
                }
                known = readers(); // the end may have been handed on to another process
                if (known.isEmpty()) {
                    whenGone.run();
                    return;
                }
                Thread.sleep(CHECK_EVERY_MILLIS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The other processes that can be seen holding the pipe's reading end. */
    private Set<Long> readers() {
        Set<Long> found = new HashSet<>();
        try (Stream<Path> processes = Files.list(PROC)) {
            processes.map(p -> p.getFileName().toString()).filter(name -> name.chars().allMatch(Character::isDigit))
                    .map(Long::parseLong).filter(pid -> pid != self && holdsReadingEnd(pid)).forEach(found::add);
        } catch (IOException e) {
            return Set.of();
        }
        return found;
    }

    private boolean holdsReadingEnd(long pid) {
        Path process = PROC.resolve(Long.toString(pid));
        try (Stream<Path> descriptors = Files.list(process.resolve("fd"))) {
            return descriptors.anyMatch(fd -> pipe.equals(linkOf(fd)) && readable(process.resolve("fdinfo").resolve(fd.getFileName())));
        } catch (IOException | SecurityException gone) {
            return false; // ended, or another user's: not seen
        }
    }

    private static String linkOf(Path fd) {
        try {
            return Files.readSymbolicLink(fd).toString();
        } catch (IOException e) {
            return "";
        }
    }

    /** The descriptor is open for reading: its flags' access mode (octal, /proc/PID/fdinfo) is O_RDONLY or O_RDWR. */
    private static boolean readable(Path fdinfo) {
        try (Stream<String> lines = Files.lines(fdinfo)) {
            return lines.filter(l -> l.startsWith("flags:")).map(l -> Integer.parseInt(l.substring(6).trim(), 8) & 3)
                    .anyMatch(mode -> mode == 0 || mode == 2);
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }
}
