package org.copydesk.review;

import java.util.List;
import java.util.Objects;
import java.util.UUID;
import org.copydesk.lease.Lease;

/**
 * A decision as submitted. {@code requestId} is chosen once per submission by the client and
 * reused on retries, so a retry after a lost reply is recognised and not applied twice.
 *
 * <p>On a desk with stages ({@code docs/workflow.md}): {@code toStage} names an earlier stage a
 * send-back goes to (null: to the writer), {@code askStages} the stages entered only when asked
 * that the article must go through ("needs legal"), with an approval or a send-back. The database
 * checks both.
 */
public record DecisionRequest(UUID requestId, long articleId, Lease lease, Verdict verdict, String notes, String toStage,
                              List<String> askStages) {

    public DecisionRequest {
        Objects.requireNonNull(requestId, "requestId");
        Objects.requireNonNull(lease, "lease");
        Objects.requireNonNull(verdict, "verdict");
        notes = notes == null ? "" : notes.strip();
        toStage = toStage == null || toStage.isBlank() ? null : toStage.strip();
        askStages = askStages == null ? List.of() : List.copyOf(askStages);
    }

    /** A decision that names no stage: on a desk with stages, approve moves on and a send-back goes to the writer. */
    public DecisionRequest(UUID requestId, long articleId, Lease lease, Verdict verdict, String notes) {
        this(requestId, articleId, lease, verdict, notes, null, List.of());
    }
}
