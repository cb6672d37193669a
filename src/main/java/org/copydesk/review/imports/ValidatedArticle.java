package org.copydesk.review.imports;

import java.time.LocalDateTime;

/**
 * A row that passed validation, ready to insert.
 *
 * @param availableAt UTC wall-clock time, or null for "now" (the server's NOW(6))
 * @param size        rough size in bytes, to keep one statement below the server's packet limit
 * @param rawText     the row's text (already cut for the quarantine), in case the database still refuses it
 * @param stage       on a desk with stages, the stage a new article enters at (null: the first)
 * @param due         when a new article is due, UTC wall-clock time to the millisecond (null: the desk's default, if any)
 */
record ValidatedArticle(long line, String externalId, String deskId, String title, String byline, String body,
                        int priority, LocalDateTime availableAt, long size, String rawText, String stage, LocalDateTime due) {
}
