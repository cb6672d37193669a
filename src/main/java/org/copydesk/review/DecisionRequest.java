package org.copydesk.review;

import java.util.Objects;
import java.util.UUID;
import org.copydesk.lease.Lease;

/**
 * A decision as submitted. {@code requestId} is chosen once per submission by the client and
 * reused on retries, so a retry after a lost reply is recognised and not applied twice.
 */
public record DecisionRequest(UUID requestId, long articleId, Lease lease, Verdict verdict, String notes) {

    public DecisionRequest {
        Objects.requireNonNull(requestId, "requestId");
        Objects.requireNonNull(lease, "lease");
        Objects.requireNonNull(verdict, "verdict");
        notes = notes == null ? "" : notes.strip();
    }
}
