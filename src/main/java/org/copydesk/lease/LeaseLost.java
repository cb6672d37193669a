package org.copydesk.lease;

import java.time.LocalDateTime;

/**
 * A write under a lease changed nothing because the lease is no longer the caller's.
 *
 * <p>When the event log names what ended the lease, all fields are known and the canonical
 * constructor says so; the factories cover the cases the log does not explain.
 *
 * @param reason       what ended it
 * @param byActor      who ended it (supervisor, release service, the new holder), if known
 * @param currentOwner who holds the row now, if anyone
 * @param detail       the reason a supervisor gave, if any
 * @param at           when it ended, by the server's clock, if known
 */
public record LeaseLost(Lease lease, LostReason reason, String byActor, String currentOwner, String detail,
                        LocalDateTime at) {

    /** The lease ran out; nobody else is known to be involved ({@code currentOwner}: whoever holds the row now, or null). */
    public static LeaseLost ranOut(Lease lease, String currentOwner) {
        return new LeaseLost(lease, LostReason.EXPIRED, null, currentOwner, null, null);
    }

    /** The lease ran out and the row is free. */
    public static LeaseLost ranOut(Lease lease) {
        return ranOut(lease, null);
    }

    /** {@code newOwner} holds the row now, by a claim the log does not show. */
    public static LeaseLost takenBy(Lease lease, String newOwner) {
        return new LeaseLost(lease, LostReason.TAKEN, newOwner, newOwner, null, null);
    }

    /** The row is gone, or the write under the lease matched nothing for a reason the lease cannot explain. */
    public static LeaseLost gone(Lease lease, String currentOwner) {
        return new LeaseLost(lease, LostReason.GONE, null, currentOwner, null, null);
    }
}
