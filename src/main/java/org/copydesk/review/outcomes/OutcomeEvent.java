package org.copydesk.review.outcomes;

import java.time.LocalDateTime;

/**
 * One outcome of a review as the outside world sees it: a row of the feed ({@code outcome_feed}),
 * the body of a webhook. Written by the database in the same transaction as the decision.
 *
 * @param cursor         the feed's position of this event; only grows
 * @param idempotencyKey the same for every delivery of this event (the decision's request id)
 * @param outcome        approved, rejected, changes_requested, unreviewable or requeued
 * @param verdict        the editor's verdict; null for a requeue
 * @param articleStatus  the article's status afterwards (a send-back past the desk's limit: quarantined)
 * @param sendBacks      how often the article has been sent back so far
 * @param returnsAt      a send-back: when the article returns to the queue (UTC); else null
 * @param leaseToken     the lease the decision was made under; null for a requeue
 * @param decidedAt      server time, UTC
 */
public record OutcomeEvent(long cursor, String idempotencyKey, String outcome, long articleId, String externalId, String desk,
                           String editor, String verdict, String notes, String articleStatus, int sendBacks,
                           LocalDateTime returnsAt, Long leaseToken, LocalDateTime decidedAt) {
}
