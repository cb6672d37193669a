package org.copydesk.review;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.copydesk.lease.Lease;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Frees expired leases every few seconds so other editors get the work, recording each as an
 * expiry in the article's history. Runs in every desktop client (several at once are harmless:
 * releasers skip rows another has locked) and as {@code copydesk release-daemon}. History names the
 * signed-in account as the one who freed them: the database decides, not this class.
 */
public final class ReleaseService implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ReleaseService.class);

    /**
     * Chunk size and pacing as measured in docs/benchmarks.md ("batches of 100, paced"): each chunk
     * a short transaction that locks few rows, and a rest as long as the chunk took, so a large
     * backlog costs the editors' claims on a busy server little. Nothing waits on the sweep: a
     * claim takes over a lapsed lease by itself.
     */
    static final int BATCH = 100;
    /** Chunks per run, at most: a run ends within a bounded time however large the backlog. */
    static final int MAX_BATCHES_PER_RUN = 1_000;

    /** A raw session holding row locks longer than this is ended (see {@code end_stuck_transactions}). */
    static final int STUCK_TRANSACTION_SECONDS = 5;

    private final ReviewProcedures procedures;
    private final Duration interval;
    private final Consumer<List<Lease>> onReleased;
    private ScheduledExecutorService scheduler;
    private volatile boolean failing;

    ReleaseService(ReviewProcedures procedures, Duration interval, Consumer<List<Lease>> onReleased) {
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("The release interval must be positive.");
        }
        this.procedures = procedures;
        this.interval = interval;
        this.onReleased = onReleased;
    }

    public synchronized void start() {
        if (scheduler != null) {
            return;
        }
        scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "copydesk-release-service");
            t.setDaemon(true);
            return t;
        });
        scheduler.scheduleWithFixedDelay(this::runQuietly, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * One sweep: ends raw sessions that block others with row locks, then frees every expired
     * lease, in paced chunks. Returns the leases it ended.
     */
    public List<Lease> runOnce() {
        int ended = procedures.endStuckTransactions(STUCK_TRANSACTION_SECONDS);
        if (ended > 0) {
            log.warn("Ended {} database session(s) that held row locks for over {} s", ended, STUCK_TRANSACTION_SECONDS);
        }
        List<Lease> released = new ArrayList<>();
        for (int batch = 0; batch < MAX_BATCHES_PER_RUN; batch++) {
            long started = System.nanoTime();
            List<Lease> chunk = procedures.releaseExpired(BATCH);
            released.addAll(chunk);
            if (chunk.size() < BATCH || !rest(Duration.ofNanos(System.nanoTime() - started))) {
                break;
            }
        }
        if (!released.isEmpty()) {
            log.info("Released {} expired lease(s)", released.size());
            onReleased.accept(released);
        }
        return released;
    }

    /** Rests on this service's own thread; false when asked to stop. */
    private static boolean rest(Duration howLong) {
        try {
            Thread.sleep(Math.max(1, howLong.toMillis()));
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private void runQuietly() {
        try {
            runOnce();
            if (failing) {
                failing = false;
                log.info("Release of expired leases works again");
            }
        } catch (RuntimeException e) {
            // The database may be away for a while (the app shows that); one warning, not one a second.
            if (!failing) {
                failing = true;
                log.warn("Release of expired leases failed; retrying every {} s quietly: {}", interval.toSeconds(), e.toString());
            } else {
                log.debug("Release of expired leases failed again: {}", e.toString());
            }
        }
    }

    public Duration interval() {
        return interval;
    }

    @Override
    public synchronized void close() {
        if (scheduler != null) {
            scheduler.shutdownNow();
            scheduler = null;
        }
    }
}
