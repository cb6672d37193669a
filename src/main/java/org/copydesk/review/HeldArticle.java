package org.copydesk.review;

import java.time.Instant;
import java.time.LocalDateTime;
import org.copydesk.lease.Lease;

/**
 * An article an editor holds right now, with the lease that proves it. {@code stage}: on a desk with
 * a review chain, the stage it is held at (the lease is for that stage; {@link ReviewStages#of} tells
 * the rest); null on a desk without stages. {@code dueAt}: when the article is due (the database's
 * UTC time as an instant), null when it has none; the time left is {@code dueAt} less the server's
 * time of the lease's read ({@link Lease#serverTime()}), never the computer's clock.
 */
public record HeldArticle(long id, String externalId, String desk, String title, String byline, int priority,
                          int attempts, LocalDateTime availableAt, Lease lease, String stage, Instant dueAt) {

    /** An article without a due time. */
    public HeldArticle(long id, String externalId, String desk, String title, String byline, int priority, int attempts,
                       LocalDateTime availableAt, Lease lease, String stage) {
        this(id, externalId, desk, title, byline, priority, attempts, availableAt, lease, stage, null);
    }

    /** An article of a desk without stages. */
    public HeldArticle(long id, String externalId, String desk, String title, String byline, int priority, int attempts,
                       LocalDateTime availableAt, Lease lease) {
        this(id, externalId, desk, title, byline, priority, attempts, availableAt, lease, null, null);
    }

    public HeldArticle withLease(Lease renewed) {
        return new HeldArticle(id, externalId, desk, title, byline, priority, attempts, availableAt, renewed, stage, dueAt);
    }

    /** The same article with a due time a supervisor moved (null: none any more). */
    public HeldArticle withDueAt(Instant moved) {
        return new HeldArticle(id, externalId, desk, title, byline, priority, attempts, availableAt, lease, stage, moved);
    }
}
