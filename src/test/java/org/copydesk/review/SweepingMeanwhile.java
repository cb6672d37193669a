package org.copydesk.review;

import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * For the attack tests that wait for the sweep to end a session: a client sweeping every 200 ms
 * while the test's work runs, and a wait until a session is gone.
 */
final class SweepingMeanwhile {

    private static final Logger log = LoggerFactory.getLogger(SweepingMeanwhile.class);

    private SweepingMeanwhile() {
    }

    /** Runs {@code work} while {@code sweep} runs every 200 ms; returns how long the work took. */
    static Duration whileSweeping(SessionSweep sweep, Runnable work) throws InterruptedException {
        AtomicBoolean done = new AtomicBoolean();
        Thread sweeper = new Thread(() -> {
            while (!done.get()) {
                try {
                    sweep.runOnce();
                } catch (RuntimeException e) {
                    log.debug("sweep: {}", e.toString());
                }
                pause(200);
            }
        }, "test-sweeper");
        sweeper.start();
        long started = System.nanoTime();
        try {
            work.run();
            return Duration.ofNanos(System.nanoTime() - started);
        } finally {
            done.set(true);
            sweeper.join();
        }
    }

    /** Waits up to 10 s for the session of {@code s} to be ended; {@code what} names it in the failure. */
    static void awaitGone(Statement s, String what) {
        for (int i = 0; i < 100; i++) {
            try {
                s.executeQuery("SELECT 1").close();
            } catch (SQLException ended) {
                return;
            }
            pause(100);
        }
        throw new AssertionError(what + " was not ended");
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
