package org.copydesk.lease;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a database call again when {@link SqlFailure} says it is worth it, as {@link RetryPolicy}
 * says: the one retry loop of Copydesk (every call of a database operation goes through it).
 */
public final class TransientErrors {

    private static final Logger log = LoggerFactory.getLogger(TransientErrors.class);
    private static final Duration FIRST_RECONNECT_WAIT = Duration.ofMillis(250);
    private static final Duration LONGEST_RECONNECT_WAIT = Duration.ofSeconds(2);
    /**
     * How long a failure an upgrade may cause ({@link SqlFailure#mayBeASchemaChange}) is tried again before
     * the call says so: an upgrade makes each routine again, and puts a rebuilt table in place, within about a second.
     */
    static final Duration SCHEMA_CHANGE_FOR = Duration.ofSeconds(3);

    private final RetryPolicy policy;
    private final RetryMetrics metrics;

    public TransientErrors(RetryPolicy policy) {
        this(policy, new RetryMetrics());
    }

    /** Counting into {@code metrics} (shared by the calls of one session). */
    public TransientErrors(RetryPolicy policy, RetryMetrics metrics) {
        this.policy = policy;
        this.metrics = metrics;
    }

    /** Runs {@code work}, again on conflicts; a lost connection reaches the caller. */
    public <T> T retrying(String operation, Supplier<T> work) {
        return retrying(operation, false, work);
    }

    /**
     * Runs {@code work}, again on conflicts and, if {@code safeToRepeat}, on a lost connection too
     * (the earlier try may have committed: only work whose repetition changes nothing more may say so).
     */
    public <T> T retrying(String operation, boolean safeToRepeat, Supplier<T> work) {
        Duration backoff = policy.firstBackoff();
        Duration reconnectWait = FIRST_RECONNECT_WAIT;
        long reconnectUntil = 0;
        long schemaChangeUntil = 0;
        for (int attempt = 1; ; attempt++) {
            metrics.attempt();
            try {
                return work.get();
            } catch (RuntimeException e) {
                SqlFailure kind = SqlFailure.of(e);
                boolean schemaChange = SqlFailure.mayBeASchemaChange(e);
                if (!schemaChange && !kind.worthRetrying(safeToRepeat)) {
                    throw e;
                }
                if (kind == SqlFailure.CONNECTION_LOST) {
                    long now = System.nanoTime();
                    if (reconnectUntil == 0) {
                        reconnectUntil = now + policy.reconnectFor().toNanos();
                    }
                    if (now + reconnectWait.toNanos() > reconnectUntil) {
                        log.debug("{}: the connection is still lost after {} attempts", operation, attempt);
                        throw e;
                    }
                    metrics.reconnect();
                    log.debug("{}: connection lost on attempt {}; trying again on a fresh connection", operation, attempt);
                    sleep(reconnectWait.toNanos());
                    reconnectWait = min(reconnectWait.multipliedBy(2), LONGEST_RECONNECT_WAIT);
                    continue;
                }
                if (schemaChange) {
                    long now = System.nanoTime();
                    if (schemaChangeUntil == 0) {
                        schemaChangeUntil = now + SCHEMA_CHANGE_FOR.toNanos();
                    }
                    if (now > schemaChangeUntil) {
                        throw e;
                    }
                    metrics.retry(SqlFailure.vendorCode(e));
                    log.debug("{}: error {} on attempt {} (an upgrade changing the schema?); trying again", operation,
                            SqlFailure.vendorCode(e), attempt);
                    sleep(Duration.ofMillis(100).toNanos());
                    continue;
                }
                int code = SqlFailure.vendorCode(e);
                if (attempt >= policy.maxAttempts()) {
                    metrics.busyFailure();
                    // the caller tells people in its own words; a log line on their terminal would be a second message
                    log.info("{} still failed after {} attempts ({})", operation, attempt, code);
                    throw new DatabaseBusyException(operation + " met a conflict on each of its " + attempt + " attempts", e);
                }
                metrics.retry(code);
                log.debug("{}: server error {} on attempt {}; retrying", operation, code, attempt);
                // full jitter: a uniform wait in [0, backoff] spreads colliding callers apart
                sleep(ThreadLocalRandom.current().nextLong(Math.max(1, backoff.toNanos()) + 1));
                backoff = min(backoff.multipliedBy(2), policy.maxBackoff());
            }
        }
    }

    public RetryPolicy policy() {
        return policy;
    }

    public RetryMetrics metrics() {
        return metrics;
    }

    private static void sleep(long nanos) {
        try {
            Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting to retry", e);
        }
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }
}
