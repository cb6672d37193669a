package org.copydesk.review;

import java.time.LocalDateTime;

/** One line of an article's history, by the server's clock. */
public record HistoryEntry(long id, LocalDateTime at, String action, String actor, String oldOwner, String newOwner,
                           Long token, String detail) {
}
