package org.copydesk.lease;

import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Runs a transaction again when the server says to (see {@link RetryPolicy}). */
final class TransientErrors {

    static final int DEADLOCK = 1213;
    static final int LOCK_WAIT_TIMEOUT = 1205;

    private static final Logger log = LoggerFactory.getLogger(TransientErrors.class);

    private final RetryPolicy policy;
    private final LeaseMetrics metrics;

    TransientErrors(RetryPolicy policy, LeaseMetrics metrics) {
        this.policy = policy;
        this.metrics = metrics;
    }

    <T> T retrying(String operation, Supplier<T> work) {
        Duration backoff = policy.firstBackoff();
        for (int attempt = 1; ; attempt++) {
            metrics.transaction();
            try {
                return work.get();
            } catch (RuntimeException e) {
                int code = transientCode(e);
                if (code == 0) {
                    throw e;
                }
                if (attempt >= policy.maxAttempts()) {
                    metrics.busyFailure();
                    log.warn("{} still failed after {} attempts ({})", operation, attempt, code);
                    throw new DatabaseBusyException("The database is busy; " + operation + " did not go through. Try again.", e);
                }
                metrics.retry(code);
                log.debug("{}: server error {} on attempt {}; retrying", operation, code, attempt);
                sleepJittered(backoff);
                backoff = min(backoff.multipliedBy(2), policy.maxBackoff());
            }
        }
    }

    /** 1213 or 1205 found in the cause chain (jOOQ wraps the driver's exception), else 0. */
    static int transientCode(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof SQLException s && (s.getErrorCode() == DEADLOCK || s.getErrorCode() == LOCK_WAIT_TIMEOUT)) {
                return s.getErrorCode();
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return 0;
    }

    private static void sleepJittered(Duration backoff) {
        long micros = Math.max(1, backoff.toNanos() / 1000);
        // full jitter: a uniform wait in [0, backoff] spreads colliding claimers apart
        long wait = ThreadLocalRandom.current().nextLong(micros + 1);
        try {
            Thread.sleep(wait / 1000, (int) (wait % 1000) * 1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting to retry", e);
        }
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }
}
