package org.copydesk.review;

import java.time.LocalDateTime;
import org.copydesk.lease.Lease;

/**
 * An article an editor holds right now, with the lease that proves it. {@code stage}: on a desk with
 * a review chain, the stage it is held at (the lease is for that stage; {@link ReviewStages#of} tells
 * the rest); null on a desk without stages.
 */
public record HeldArticle(long id, String externalId, String desk, String title, String byline, int priority,
                          int attempts, LocalDateTime availableAt, Lease lease, String stage) {

    /** An article of a desk without stages. */
    public HeldArticle(long id, String externalId, String desk, String title, String byline, int priority, int attempts,
                       LocalDateTime availableAt, Lease lease) {
        this(id, externalId, desk, title, byline, priority, attempts, availableAt, lease, null);
    }

    public HeldArticle withLease(Lease renewed) {
        return new HeldArticle(id, externalId, desk, title, byline, priority, attempts, availableAt, renewed, stage);
    }
}
