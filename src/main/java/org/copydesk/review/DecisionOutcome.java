package org.copydesk.review;

import java.time.LocalDateTime;
import org.copydesk.lease.LeaseLost;

/** What became of a submitted decision. */
public sealed interface DecisionOutcome {

    /**
     * Applied. {@code resultingStatus} is the article's status afterwards (approved, rejected,
     * awaiting_writer for a send-back that waits for the writer's revision, queued for a send-back on a
     * desk with the timer, quarantined); {@code returnsAt} is set only for a send-back on the timer.
     */
    record Recorded(long articleId, Verdict verdict, String resultingStatus, LocalDateTime returnsAt,
                    boolean autoQuarantined) implements DecisionOutcome {
    }

    /** The same request was applied before (a retry after a lost reply): nothing done twice. */
    record AlreadyRecorded(long articleId, Verdict verdict) implements DecisionOutcome {
    }

    /** The lease was lost: nothing changed, the notes stay as a draft. {@code message} is for the editor. */
    record Lost(LeaseLost lost, String message) implements DecisionOutcome {
    }

    /** The request itself is incomplete (e.g. a rejection without a reason): nothing changed. */
    record Refused(String message) implements DecisionOutcome {
    }
}
