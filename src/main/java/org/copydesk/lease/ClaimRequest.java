package org.copydesk.lease;

import java.time.Duration;
import java.util.Objects;
import org.jooq.Condition;
import org.jooq.Field;
import org.jooq.impl.DSL;

/**
 * One claim: hold up to {@code limit} rows for {@code owner}, the ones already held first.
 *
 * @param scope      which rows the owner may receive (desk, availability, status); the engine adds
 *                   "free or expired"
 * @param ttl        length of every lease this claim gives or refreshes
 * @param ttlPerRow  optional: a per-row lease length in seconds, evaluated by the server for each
 *                   row (e.g. a correlated lookup of the row's desk); when given it replaces {@code ttl}
 */
public record ClaimRequest(Owner owner, Condition scope, ClaimOrder order, int limit, Duration ttl,
                           Field<Integer> ttlPerRow) {

    public ClaimRequest(Owner owner, Condition scope, ClaimOrder order, int limit, Duration ttl) {
        this(owner, scope, order, limit, ttl, null);
    }

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

    /** When a lease given or refreshed now by this claim ends: {@code NOW(6)} plus the lease length. */
    Field<java.time.LocalDateTime> expiry() {
        return ttlPerRow == null ? ServerClock.nowPlus(ttl) : ServerClock.plusSeconds(ServerClock.now(), ttlPerRow);
    }
}
