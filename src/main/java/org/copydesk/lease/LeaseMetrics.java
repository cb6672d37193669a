package org.copydesk.lease;

import java.util.concurrent.atomic.LongAdder;

/** Counters an engine keeps, for benchmarks and the supervisor's health view. */
public final class LeaseMetrics {

    private final LongAdder transactions = new LongAdder();
    private final LongAdder retries = new LongAdder();
    private final LongAdder deadlocks = new LongAdder();
    private final LongAdder lockWaitTimeouts = new LongAdder();
    private final LongAdder busyFailures = new LongAdder();
    private final LongAdder optimisticConflicts = new LongAdder();
    private final LongAdder reconnects = new LongAdder();

    void transaction() {
        transactions.increment();
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

    void optimisticConflict() {
        optimisticConflicts.increment();
    }

    /** Transactions started (retries count again). */
    public long transactions() {
        return transactions.sum();
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

    /** Operations that still failed after every retry (surfaced as {@link DatabaseBusyException}). */
    public long busyFailures() {
        return busyFailures.sum();
    }

    /** Optimistic claims that lost a compare-and-set to another claimer. */
    public long optimisticConflicts() {
        return optimisticConflicts.sum();
    }

    /** Calls run again on a fresh connection after theirs was lost (safe-to-repeat work only). */
    public long reconnects() {
        return reconnects.sum();
    }
}
