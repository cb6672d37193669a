package org.copydesk.review.outcomes;

import java.time.LocalDateTime;

/**
 * One outcome of a review as the outside world sees it: a row of the feed ({@code outcome_feed}),
 * the body of a webhook. Written by the database in the same transaction as the decision.
 *
 * @param cursor         the feed's position of this event; only grows
 * @param idempotencyKey the same for every delivery of this event (the decision's request id)
 * @param outcome        approved, rejected, changes_requested, unreviewable, requeued, reopened, or on a desk with
 *                       stages stage_passed (approved at a stage, on to the next) or stage_returned (sent back to an
 *                       earlier stage) or stage_moved (a supervisor moved it to another stage)
 * @param verdict        the editor's verdict; null for a requeue
 * @param articleStatus  the article's status afterwards (a send-back past the desk's limit: quarantined)
 * @param sendBacks      how often the article has been sent back so far
 * @param returnsAt      a send-back: when the article returns to the queue (UTC); else null
 * @param leaseToken     the lease the decision was made under; null for a requeue
 * @param decidedAt      server time, UTC
 * @param stage          on a desk with stages: the stage decided at (null otherwise)
 * @param toStage        a stage step (stage_passed, stage_returned): the stage the article went to; else null
 * @param dueAt          a deadline event (deadline_missed): the due time it is about, UTC; else null
 */
public record OutcomeEvent(long cursor, String idempotencyKey, String outcome, long articleId, String externalId, String desk,
                           String editor, String verdict, String notes, String articleStatus, int sendBacks,
                           LocalDateTime returnsAt, Long leaseToken, LocalDateTime decidedAt, String stage, String toStage,
                           LocalDateTime dueAt) {

    /**
     * The outcomes about an article's deadline, not a decision: deadline_missed (its due time passed
     * while it was in review); deadline_at_risk is to come with the forecast.
     */
    public static final java.util.Set<String> DEADLINE_EVENTS = java.util.Set.of("deadline_missed", "deadline_at_risk");

    /** An event that is not about a deadline. */
    public OutcomeEvent(long cursor, String idempotencyKey, String outcome, long articleId, String externalId, String desk,
                        String editor, String verdict, String notes, String articleStatus, int sendBacks,
                        LocalDateTime returnsAt, Long leaseToken, LocalDateTime decidedAt, String stage, String toStage) {
        this(cursor, idempotencyKey, outcome, articleId, externalId, desk, editor, verdict, notes, articleStatus, sendBacks,
                returnsAt, leaseToken, decidedAt, stage, toStage, null);
    }

    /** The outcomes of a step between two stages of a desk's chain; every other outcome is as on a desk without stages. */
    public static final java.util.Set<String> STAGE_STEPS = java.util.Set.of("stage_passed", "stage_returned", "stage_moved");

    /** An event of a desk without stages. */
    public OutcomeEvent(long cursor, String idempotencyKey, String outcome, long articleId, String externalId, String desk,
                        String editor, String verdict, String notes, String articleStatus, int sendBacks,
                        LocalDateTime returnsAt, Long leaseToken, LocalDateTime decidedAt) {
        this(cursor, idempotencyKey, outcome, articleId, externalId, desk, editor, verdict, notes, articleStatus, sendBacks,
                returnsAt, leaseToken, decidedAt, null, null);
    }

    /** A step between two stages, not a decision that goes out to the writer or the page. */
    public boolean stageStep() {
        return STAGE_STEPS.contains(outcome);
    }

    /** About an article's deadline (it carries {@link #dueAt()}), not a decision. */
    public boolean deadlineEvent() {
        return DEADLINE_EVENTS.contains(outcome);
    }
}
