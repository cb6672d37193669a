package org.copydesk.review;

import java.time.LocalDateTime;
import org.copydesk.lease.Lease;

/** An article an editor holds right now, with the lease that proves it. */
public record HeldArticle(long id, String externalId, String desk, String title, String byline, int priority,
                          int attempts, LocalDateTime availableAt, Lease lease) {

    public HeldArticle withLease(Lease renewed) {
        return new HeldArticle(id, externalId, desk, title, byline, priority, attempts, availableAt, renewed);
    }
}
