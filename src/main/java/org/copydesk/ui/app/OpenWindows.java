package org.copydesk.ui.app;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.prefs.BackingStoreException;
import java.util.prefs.Preferences;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Copydesk windows open on this computer for this user, one entry per process in the user's
 * preferences ({@code open-windows/PID = start time, who is signed in, where}). Cheap and local:
 * it lets a new window open a step away from the others instead of on top of them, and tells a
 * person who signs in twice that another window already works as them. An entry whose process is
 * gone (a crash) is ignored and tidied up.
 */
final class OpenWindows {

    private static final Logger log = LoggerFactory.getLogger(OpenWindows.class);
    private static final String SEPARATOR = "\t";

    /** One other window: its process, and who is signed in there (empty while it shows the sign-in form). */
    record Window(long pid, String signedInAs, String database) {
    }

    private final Preferences node;
    private final long self;
    private final String selfStart;

    OpenWindows(Preferences root) {
        this(root.node("open-windows"), ProcessHandle.current());
    }

    OpenWindows(Preferences node, ProcessHandle self) {
        this.node = node;
        this.self = self.pid();
        this.selfStart = startOf(self);
    }

    /** Registers this window; returns the other windows open now. */
    List<Window> open() {
        List<Window> others = others();
        write("", "");
        return others;
    }

    /** Records who signed in here, and returns the other windows where the same person works on the same database. */
    List<Window> signedIn(String editorId, String database) {
        write(editorId, database);
        return others().stream().filter(w -> w.signedInAs().equals(editorId) && w.database().equals(database)).toList();
    }

    void close() {
        node.remove(Long.toString(self));
        flush();
    }

    /** The other live windows (their processes run and started when they registered). */
    List<Window> others() {
        sync();
        List<Window> live = new ArrayList<>();
        String[] keys;
        try {
            keys = node.keys();
        } catch (BackingStoreException | IllegalStateException e) {
            log.debug("Cannot read the open windows: {}", e.toString());
            return live;
        }
        for (String key : keys) {
            long pid;
            try {
                pid = Long.parseLong(key);
            } catch (NumberFormatException e) {
                continue;
            }
            if (pid == self) {
                continue;
            }
            String[] value = node.get(key, "").split(SEPARATOR, -1);
            if (alive(pid, value[0])) {
                live.add(new Window(pid, value.length > 1 ? value[1] : "", value.length > 2 ? value[2] : ""));
            } else {
                node.remove(key); // a window that crashed
            }
        }
        return live;
    }

    private void write(String editorId, String database) {
        node.put(Long.toString(self), String.join(SEPARATOR, selfStart, editorId, database));
        flush();
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

    private void sync() {
        try {
            node.sync();
        } catch (BackingStoreException | IllegalStateException e) {
            log.debug("Cannot read the open windows: {}", e.toString());
        }
    }

    private void flush() {
        try {
            node.flush();
        } catch (BackingStoreException | IllegalStateException e) {
            log.debug("Cannot record the open windows: {}", e.toString());
        }
    }
}
