package org.copydesk.review.imports;

import java.time.LocalDateTime;

/**
 * A row an import could not take. For CSV rows, {@code rawText} is the header line followed by the
 * row, so the entry can be read, corrected and requeued on its own.
 *
 * @param createdAt server time (UTC) the row was quarantined
 */
public record QuarantinedRow(long id, String importId, String sourceName, long lineNumber, String rawText,
                             String reason, LocalDateTime createdAt) {
}
