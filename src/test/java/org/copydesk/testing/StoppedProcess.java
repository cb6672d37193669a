package org.copydesk.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A process stopped with SIGSTOP (Linux): alive, its sockets open, answering nothing, as a frozen
 * server is. {@link #close()} sends SIGCONT; use it in try-with-resources or an {@code @AfterEach},
 * so that no test leaves a stopped server behind (every later shutdown of it would hang).
 */
public final class StoppedProcess implements AutoCloseable {

    private final long pid;
    private boolean resumed;

    private StoppedProcess(long pid) {
        this.pid = pid;
    }

    /** Stops {@code pid} and returns once the system shows it stopped. */
    public static StoppedProcess stop(long pid) {
        StoppedProcess stopped = new StoppedProcess(pid);
        try {
            signal("STOP", pid);
            Await.waitFor(5, stopped::isStopped);
        } catch (RuntimeException | AssertionError e) {
            stopped.close();
            throw e;
        }
        return stopped;
    }

    public long pid() {
        return pid;
    }

    /** The state letter in {@code /proc/PID/stat} is {@code T}. */
    public boolean isStopped() {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            return stat.charAt(stat.lastIndexOf(')') + 2) == 'T';
        } catch (IOException e) {
            return false; // gone
        }
    }

    /** Sends SIGCONT, once. */
    @Override
    public void close() {
        if (!resumed) {
            signal("CONT", pid);
            resumed = true;
        }
    }

    private static void signal(String signal, long pid) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start();
            if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new AssertionError("kill -" + signal + " " + pid + " failed");
            }
        } catch (IOException e) {
            throw new AssertionError("cannot run kill -" + signal + " " + pid, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted sending SIG" + signal + " to " + pid, e);
        }
    }
}
