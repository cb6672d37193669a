package org.copydesk.lease;

import java.util.concurrent.atomic.LongAdder;

/** What the retries of one session's database calls counted, for benchmarks and cluster runs. */
public final class RetryMetrics {

    private final LongAdder attempts = new LongAdder();
    private final LongAdder retries = new LongAdder();
    private final LongAdder deadlocks = new LongAdder();
    private final LongAdder lockWaitTimeouts = new LongAdder();
    private final LongAdder busyFailures = new LongAdder();
    private final LongAdder reconnects = new LongAdder();

    void attempt() {
        attempts.increment();
    }

    void retry(int errorCode) {
        retries.increment();
        if (errorCode == SqlFailure.DEADLOCK) {
            deadlocks.increment();
        } else if (errorCode == SqlFailure.LOCK_WAIT_TIMEOUT) {
            lockWaitTimeouts.increment();
        }
    }

    void reconnect() {
        reconnects.increment();
    }

    void busyFailure() {
        busyFailures.increment();
    }

    /** Calls sent to the server (a retry counts again). */
    public long attempts() {
        return attempts.sum();
    }

    public long retries() {
        return retries.sum();
    }

    public long deadlocks() {
        return deadlocks.sum();
    }

    public long lockWaitTimeouts() {
        return lockWaitTimeouts.sum();
    }

    /** Calls that still failed after every retry (surfaced as {@link DatabaseBusyException}). */
    public long busyFailures() {
        return busyFailures.sum();
    }

    /** Calls run again on a fresh connection after theirs was lost (work safe to repeat only). */
    public long reconnects() {
        return reconnects.sum();
    }
}
