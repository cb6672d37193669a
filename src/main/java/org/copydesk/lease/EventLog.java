package org.copydesk.lease;

import java.time.LocalDateTime;
import org.jooq.Field;
import org.jooq.Table;

/**
 * The append-only table the engine writes one row to for every change, in the same transaction
 * as the change.
 */
public record EventLog(Table<?> table, Field<Long> id, Field<LocalDateTime> occurredAt, Field<String> resource,
                       Field<String> rowKey, Field<String> action, Field<String> actor, Field<String> oldOwner,
                       Field<String> newOwner, Field<Long> oldToken, Field<Long> token,
                       Field<LocalDateTime> expiresAt, Field<String> detail) {
}
