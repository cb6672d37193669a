package org.copydesk.review;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.copydesk.lease.Lease;
import org.copydesk.lease.LeaseEngine;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Frees expired leases every few seconds so other editors get the work, recording each as an
 * expiry in the article's history. Runs in every desktop client (several at once are harmless:
 * releasers skip rows another has locked) and as {@code copydesk release-daemon}.
 */
public final class ReleaseService implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ReleaseService.class);

    /** Chunk size: short transactions, few locks held at once. */
    static final int BATCH = 200;

    private final LeaseEngine engine;
    private final Duration interval;
    private final String actor;
    private final Consumer<List<Lease>> onReleased;
    private ScheduledExecutorService scheduler;

    public ReleaseService(LeaseEngine engine, Duration interval, String actor, Consumer<List<Lease>> onReleased) {
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("The release interval must be positive.");
        }
        this.engine = engine;
        this.interval = interval;
        this.actor = actor;
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

    /** One sweep: frees every expired lease, in chunks. Returns the leases it ended. */
    public List<Lease> runOnce() {
        List<Lease> released = engine.releaseExpired(BATCH, 1_000, actor);
        if (!released.isEmpty()) {
            log.info("Released {} expired lease(s)", released.size());
            onReleased.accept(released);
        }
        return released;
    }

    private void runQuietly() {
        try {
            runOnce();
        } catch (RuntimeException e) {
            // The database may be away for a moment; the next run tries again.
            log.warn("Release of expired leases failed: {}", e.toString());
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
