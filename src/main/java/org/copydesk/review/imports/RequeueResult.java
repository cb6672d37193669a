package org.copydesk.review.imports;

/**
 * What happened to a corrected row sent back from the quarantine.
 *
 * @param articleId the new article's id when {@code outcome} is IMPORTED, else null
 * @param reason    why the row is still refused (STILL_INVALID) or why nothing was done (NOT_OPEN), else null
 */
public record RequeueResult(Outcome outcome, Long articleId, String reason) {

    public enum Outcome {
        /** The row is now an article; the quarantine entry is resolved. */
        IMPORTED,
        /** An article with this external id exists already; the quarantine entry is resolved. */
        ALREADY_PRESENT,
        /** The corrected row is still invalid; the entry stays open. */
        STILL_INVALID,
        /** No open entry with that id (resolved meanwhile, or never existed). */
        NOT_OPEN
    }
}
