package org.copydesk.lease;

import java.time.Duration;
import java.time.LocalDateTime;
import java.util.Optional;

/**
 * One row for the event log, built only through the named factories below: each says which
 * columns an action fills, so no caller lines up nine positional values with nulls between them.
 * {@link LeaseSql#append} is the one Java writer of the log.
 *
 * <p>Since V4 the product's history is written by the database procedures ({@code log_event});
 * these events are the Java engine's (contract and race tests, the benchmark, other tables), in
 * the same shape so one reader serves both.
 */
record LeaseEvent(RowKey key, LeaseAction action, String actor, String oldOwner, String newOwner, Long oldToken,
                  Long token, LocalDateTime expiresAt, String detail) {

    /** {@code lease} was taken by a claim; the row was free, or its lapsed lease was {@code previousOwner}'s. */
    static LeaseEvent claimed(Lease lease, String previousOwner, Long previousToken) {
        return new LeaseEvent(lease.key(), LeaseAction.CLAIM, lease.owner(), previousOwner, lease.owner(), previousToken,
                lease.token(), lease.expiresAt(), null);
    }

    /** A claim by {@code by} took over the lapsed lease of {@code owner}: that lease ends here. */
    static LeaseEvent takenOver(RowKey key, String owner, Long token, String by) {
        return new LeaseEvent(key, LeaseAction.EXPIRE, by, owner, null, token, null, null, "lapsed lease taken over by " + by);
    }

    /** A reload kept the owner's valid lease with a new expiry, same token. */
    static LeaseEvent refreshed(Lease lease, String actor) {
        return kept(LeaseAction.REFRESH, lease, actor, null);
    }

    /** A heartbeat or explicit renewal moved the expiry, same token. */
    static LeaseEvent renewed(Lease lease, String actor) {
        return kept(LeaseAction.RENEW, lease, actor, null);
    }

    /** A supervisor moved the expiry by {@code by}, same token. */
    static LeaseEvent extended(Lease lease, String actor, Duration by) {
        return kept(LeaseAction.EXTEND, lease, actor, "extended by " + by.toMinutes() + " min");
    }

    /**
     * {@code lease} ended without a successor: released or completed by its holder, force-released
     * by a supervisor ({@code detail}: the reason), or expired ({@link #expired}).
     */
    static LeaseEvent ended(LeaseAction action, Lease lease, String actor, String detail) {
        return new LeaseEvent(lease.key(), action, actor, lease.owner(), null, lease.token(), null, null, detail);
    }

    /** The release service ended a lease that ran out. */
    static LeaseEvent expired(Lease lease, String actor) {
        return ended(LeaseAction.EXPIRE, lease, actor, "lease expired at " + lease.expiresAt());
    }

    /** A supervisor gave the row to {@code after}'s owner under a new token, ending {@code before} if there was one. */
    static LeaseEvent reassigned(Optional<Lease> before, Lease after, String actor, String reason) {
        return new LeaseEvent(after.key(), LeaseAction.REASSIGN, actor, before.map(Lease::owner).orElse(null), after.owner(),
                before.map(Lease::token).orElse(null), after.token(), after.expiresAt(), reason);
    }

    private static LeaseEvent kept(LeaseAction action, Lease lease, String actor, String detail) {
        return new LeaseEvent(lease.key(), action, actor, lease.owner(), lease.owner(), lease.token(), lease.token(),
                lease.expiresAt(), detail);
    }
}
