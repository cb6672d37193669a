package org.copydesk.lease;

/** Result of a write under a lease: it was applied, or the lease was lost (nothing changed). */
public sealed interface WriteOutcome permits WriteOutcome.Applied, WriteOutcome.Lost {

    /** The write was applied; {@code lease} is the lease after it (or the ended lease for release/complete). */
    record Applied(Lease lease) implements WriteOutcome {
    }

    record Lost(LeaseLost lost) implements WriteOutcome {
    }

    default boolean applied() {
        return this instanceof Applied;
    }
}
