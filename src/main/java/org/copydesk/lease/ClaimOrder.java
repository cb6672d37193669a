package org.copydesk.lease;

import java.util.ArrayList;
import java.util.List;
import org.jooq.Field;
import org.jooq.SortField;

/**
 * The order in which free rows are claimed, supplied by the caller, with one rule built in: within
 * the {@code leading} order (typically priority), rows that were claimed before and came back
 * (lane 0: lease expired or released) go before fresh rows (lane 1), because they have waited
 * longest. Then the {@code trailing} order decides (typically oldest first, then key).
 *
 * <p>Give the table an index whose columns follow exactly this order so that a locking claim
 * walks the index and stops after its limit instead of sorting and locking every candidate.
 */
public record ClaimOrder(List<SortField<?>> leading, List<SortField<?>> trailing) {

    public ClaimOrder {
        leading = List.copyOf(leading);
        trailing = List.copyOf(trailing);
    }

    /**
     * The fields whose values make rows equals in rank: the leading order and the lane. Within
     * such a group only the trailing order (age) separates rows.
     */
    List<Field<?>> rankFields(LeaseTable table) {
        List<Field<?>> fields = new ArrayList<>();
        leading.forEach(s -> fields.add(s.$field()));
        fields.add(table.lane());
        return fields;
    }

    List<SortField<?>> fullOrder(LeaseTable table) {
        List<SortField<?>> order = new ArrayList<>(leading);
        order.add(table.lane().asc());
        order.addAll(trailing);
        return order;
    }
}
