package org.copydesk.lease;

import java.time.Duration;
import java.util.Objects;
import org.jooq.Condition;
import org.jooq.impl.DSL;

/**
 * One claim: hold up to {@code limit} rows for {@code owner}, the ones already held first.
 *
 * @param scope which rows the owner may receive (desk, availability, status); the engine adds
 *              "free or expired"
 * @param ttl   length of every lease this claim gives or refreshes
 */
public record ClaimRequest(Owner owner, Condition scope, ClaimOrder order, int limit, Duration ttl) {

    public ClaimRequest {
        Objects.requireNonNull(owner, "owner");
        scope = scope == null ? DSL.noCondition() : scope;
        Objects.requireNonNull(order, "order");
        if (limit < 0) {
            throw new IllegalArgumentException("limit < 0");
        }
        if (ttl == null || ttl.isNegative() || ttl.isZero()) {
            throw new IllegalArgumentException("ttl must be positive");
        }
    }
}
