package org.copydesk.review;

import java.time.LocalDateTime;
import org.copydesk.lease.LeaseLost;

/** What became of a submitted decision. */
public sealed interface DecisionOutcome {

    /**
     * Applied. {@code resultingStatus} is the article's status afterwards (approved, rejected,
     * awaiting_writer for a send-back that waits for the writer's revision, queued for a send-back on a
     * desk with the timer, quarantined); {@code returnsAt} is set only for a send-back on the timer.
     * {@code stage}: on a desk with stages, the stage the article is at afterwards (the next one
     * after an approval that moved it on, with status queued); null on a desk without stages.
     */
    record Recorded(long articleId, Verdict verdict, String resultingStatus, LocalDateTime returnsAt,
                    boolean autoQuarantined, String stage) implements DecisionOutcome {

        public Recorded(long articleId, Verdict verdict, String resultingStatus, LocalDateTime returnsAt, boolean autoQuarantined) {
            this(articleId, verdict, resultingStatus, returnsAt, autoQuarantined, null);
        }

    }

    /** The same request was applied before (a retry after a lost reply): nothing done twice. */
    record AlreadyRecorded(long articleId, Verdict verdict) implements DecisionOutcome {
    }

    /** The lease was lost: nothing changed, the notes stay as a draft. {@code explanation} is for the editor. */
    record Lost(LeaseLost lost, Phrase explanation) implements DecisionOutcome {

        public String message() {
            return explanation.text();
        }
    }

    /**
     * Nothing changed: the request was incomplete (a rejection without a reason), the article is
     * gone or changed, or the database refused it by its rules ({@code databaseWords}, shown as sent).
     */
    record Refused(DecisionRefusal reason, String databaseWords) implements DecisionOutcome {

        Refused(DecisionRefusal reason) {
            this(reason, null);
        }

        /** Why, in words for the editor. */
        public String message() {
            return reason == DecisionRefusal.BY_THE_DATABASE ? databaseWords : reason.phrase().text();
        }
    }
}
