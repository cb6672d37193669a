package org.copydesk.ui.app;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Copydesk windows open on this computer for this user: one small file per process in a
 * folder ({@code PID} holding its start time, who is signed in there, and where). Cheap and local:
 * it lets a new window open a step away from the others instead of on top of them, and tells a
 * person who signs in twice that another window already works as them. A file whose process is
 * gone (a crash) is ignored and tidied up.
 *
 * <p>Files, not {@code java.util.prefs}: the preferences' file store on Linux loses one process's
 * entries when another process writes the same node within the same second.
 */
final class OpenWindows {

    private static final Logger log = LoggerFactory.getLogger(OpenWindows.class);
    private static final String SEPARATOR = "\t";

    /** One other window: its process, and who is signed in there (empty while it shows the sign-in form). */
    record Window(long pid, String signedInAs, String database) {
    }

    private final Path folder;
    private final long self;
    private final String selfStart;

    /** The folder for this user, under the temporary folder: what it holds lives only as long as the windows. */
    static OpenWindows forCurrentUser() {
        return forCurrentUser(ProcessHandle.current());
    }

    /** As {@link #forCurrentUser()}, for the window of another process (tests: a second window). */
    static OpenWindows forCurrentUser(ProcessHandle process) {
        String user = System.getProperty("user.name", "user").replaceAll("[^A-Za-z0-9._-]", "_");
        return new OpenWindows(Path.of(System.getProperty("java.io.tmpdir"), "copydesk-" + user, "windows"), process);
    }

    OpenWindows(Path folder, ProcessHandle self) {
        this.folder = folder;
        this.self = self.pid();
        this.selfStart = startOf(self);
    }

    private boolean hooked;

    /** Registers this window; returns the other windows open now. */
    List<Window> open() {
        List<Window> others = others();
        write("", "");
        if (!hooked && self == ProcessHandle.current().pid()) {
            hooked = true;
            // Ctrl-C, SIGTERM, System.exit: the entry goes with the process (a crash is tidied by the next window)
            Runtime.getRuntime().addShutdownHook(new Thread(this::close, "copydesk-window-entry"));
        }
        return others;
    }

    /** Records who signed in here, and returns the other windows where the same person works on the same database. */
    List<Window> signedIn(String editorId, String database) {
        write(editorId, database);
        return alsoSignedIn(editorId, database);
    }

    /** The other windows where this person works on this database now (they share the person's articles). */
    List<Window> alsoSignedIn(String editorId, String database) {
        return others().stream().filter(w -> w.signedInAs().equals(editorId) && w.database().equals(database)).toList();
    }

    void close() {
        try {
            Files.deleteIfExists(folder.resolve(Long.toString(self)));
        } catch (IOException e) {
            log.debug("Cannot remove this window's entry: {}", e.toString());
        }
    }

    /** The other live windows (their processes run and started when they registered). */
    List<Window> others() {
        List<Window> live = new ArrayList<>();
        if (!Files.isDirectory(folder)) {
            return live;
        }
        List<Path> files;
        try (Stream<Path> list = Files.list(folder)) {
            files = list.toList();
        } catch (IOException e) {
            log.debug("Cannot read the open windows: {}", e.toString());
            return live;
        }
        for (Path file : files) {
            String name = file.getFileName().toString();
            if (!name.chars().allMatch(Character::isDigit) || name.isEmpty()) {
                continue;
            }
            long pid = Long.parseLong(name);
            if (pid == self) {
                continue;
            }
            String[] value;
            try {
                value = Files.readString(file, StandardCharsets.UTF_8).split(SEPARATOR, -1);
            } catch (IOException e) {
                continue; // closed meanwhile
            }
            if (alive(pid, value[0])) {
                live.add(new Window(pid, value.length > 1 ? value[1] : "", value.length > 2 ? value[2].strip() : ""));
            } else {
                try {
                    Files.deleteIfExists(file); // a window that crashed
                } catch (IOException e) {
                    log.debug("Cannot tidy {}: {}", file, e.toString());
                }
            }
        }
        return live;
    }

    private void write(String editorId, String database) {
        try {
            Files.createDirectories(folder);
            Path tmp = folder.resolve(self + ".tmp");
            Files.writeString(tmp, String.join(SEPARATOR, selfStart, editorId, database), StandardCharsets.UTF_8);
            Files.move(tmp, folder.resolve(Long.toString(self)), StandardCopyOption.REPLACE_EXISTING,
                    StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            log.debug("Cannot record this window: {}", e.toString());
        }
    }

    private static boolean alive(long pid, String recordedStart) {
        Optional<ProcessHandle> process = ProcessHandle.of(pid).filter(ProcessHandle::isAlive);
        if (process.isEmpty()) {
            return false;
        }
        String start = startOf(process.get());
        if (recordedStart.isEmpty() || start.isEmpty()) {
            return true;
        }
        try {
            // the pid was reused by another program if its start time differs
            return Duration.between(Instant.parse(recordedStart), Instant.parse(start)).abs().getSeconds() < 1;
        } catch (DateTimeParseException e) {
            return true;
        }
    }

    private static String startOf(ProcessHandle process) {
        return process.info().startInstant().map(Instant::toString).orElse("");
    }
}
