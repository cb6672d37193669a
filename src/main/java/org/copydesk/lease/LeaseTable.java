package org.copydesk.lease;

import java.time.LocalDateTime;
import java.util.List;
import java.util.Objects;
import org.jooq.Field;
import org.jooq.Table;

/**
 * Any table can be leased: it needs a key, an owner column, an expiry column, a token column and
 * a lane column (0 = work that came back, 1 = fresh; see {@link ClaimOrder}). The engine knows the
 * table only through these handles.
 *
 * @param resource  the name written to the event log for this table
 * @param claimedAt optional: when the current lease began (enables the maximum hold time)
 * @param renewals  optional: counts renewals of the current lease
 */
public record LeaseTable(Table<?> table, String resource, List<Field<?>> key, Field<String> owner,
                         Field<LocalDateTime> expiresAt, Field<Long> token, Field<Integer> lane,
                         Field<LocalDateTime> claimedAt, Field<Integer> renewals) {

    public LeaseTable {
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(resource, "resource");
        key = List.copyOf(key);
        if (key.isEmpty()) {
            throw new IllegalArgumentException("a leasable table needs a key");
        }
        Objects.requireNonNull(owner, "owner");
        Objects.requireNonNull(expiresAt, "expiresAt");
        Objects.requireNonNull(token, "token");
        Objects.requireNonNull(lane, "lane");
    }
}
