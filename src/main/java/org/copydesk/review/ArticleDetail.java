package org.copydesk.review;

import java.time.LocalDateTime;

/** Everything the reader shows about one article. */
public record ArticleDetail(long id, String externalId, String desk, String title, String byline, String body,
                            int priority, String status, int attempts, LocalDateTime availableAt,
                            LocalDateTime createdAt, String lockedBy, LocalDateTime expiresAt) {
}
