package org.copydesk.ui.supervisor;

import java.time.Duration;
import java.time.LocalDateTime;
import java.util.Objects;
import org.copydesk.review.Supervision.ActiveLease;

/**
 * One active lease in "Who holds what". Immutable: a change on the server replaces the row, so
 * sorted and filtered lists see a plain remove and add.
 *
 * <p>Time left and the holder's idleness tick on this PC's monotonic clock from what the server
 * said when the row was read: the lease runs out at {@code deadlineNanos}, a local instant fixed
 * at read time. Sorting by that instant is sorting by time left, and it never needs redoing as the
 * clock moves.
 */
public final class HolderRow {

    private final ActiveLease lease;
    private final long deadlineNanos;
    private final long lastSeenNanos;
    private final boolean everSeen;

    HolderRow(ActiveLease lease, long readAtNanos) {
        this.lease = lease;
        this.deadlineNanos = readAtNanos + Duration.between(lease.serverNow(), lease.expiresAt()).toNanos();
        this.everSeen = lease.editorLastSeen() != null;
        this.lastSeenNanos = everSeen ? readAtNanos - Duration.between(lease.editorLastSeen(), lease.serverNow()).toNanos() : 0;
    }

    public long id() {
        return lease.articleId();
    }

    public ActiveLease lease() {
        return lease;
    }

    public String editorId() {
        return lease.editorId();
    }

    public String editorName() {
        return lease.editorName();
    }

    public String title() {
        return lease.title();
    }

    public String desk() {
        return lease.desk();
    }

    /** The stage of the desk's chain the article is held at; null on a desk without stages. */
    public String stageName() {
        return lease.stageName();
    }

    public int renewals() {
        return lease.renewals();
    }

    public LocalDateTime claimedAt() {
        return lease.claimedAt();
    }

    long deadlineNanos() {
        return deadlineNanos;
    }

    /** When the holder was last seen at work, on the local clock; never seen sorts as longest ago. */
    long lastSeenNanos() {
        return everSeen ? lastSeenNanos : Long.MIN_VALUE;
    }

    public Duration timeLeft(long nowNanos) {
        long left = deadlineNanos - nowNanos;
        return left <= 0 ? Duration.ZERO : Duration.ofNanos(left);
    }

    boolean expired(long nowNanos) {
        return deadlineNanos <= nowNanos;
    }

    /** Whether the holder's client showed them at work recently. */
    public Presence presence(long nowNanos, Duration idleAfter, Duration offlineAfter) {
        return everSeen ? Presence.of(Duration.ofNanos(Math.max(0, nowNanos - lastSeenNanos)), idleAfter, offlineAfter)
                : Presence.OFFLINE;
    }

    /** Same lease as the server describes it now (the read time aside): nothing to redraw. */
    boolean sameAs(ActiveLease other) {
        return other.articleId() == lease.articleId()
                && Objects.equals(other.editorId(), lease.editorId())
                && Objects.equals(other.expiresAt(), lease.expiresAt())
                && other.renewals() == lease.renewals()
                && Objects.equals(other.claimedAt(), lease.claimedAt())
                && Objects.equals(other.editorLastSeen(), lease.editorLastSeen())
                && Objects.equals(other.title(), lease.title());
    }

    @Override
    public String toString() {
        return lease.title() + " (" + lease.editorName() + ")";
    }
}
