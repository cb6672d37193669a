package org.copydesk.review.imports;

/**
 * What an import did with a row whose external id was already there with a different title, body
 * or byline (db/routines/R__import_articles.sql). Rows with the same content are counted as already
 * present and are not listed.
 *
 * @param revision the article's revision after the row (for {@link Kind#ALREADY_DECIDED}: unchanged)
 */
public record RevisionRow(long line, String externalId, long articleId, Kind kind, int revision) {

    public enum Kind {
        /** Waiting in the queue: editors now see the new revision. */
        REVISED("revised", "new revision; editors see it now"),
        /** Held by an editor: recorded; their decision on the older revision is refused until they take the new one. */
        REVISED_HELD("revised_held", "new revision; the editor holding it is told a newer version arrived"),
        /** Sent back for changes: the writer's revision is back in the queue at once, ahead of fresh work. */
        RETURNED("returned", "new revision of an article sent back for changes; back in the queue"),
        /** Approved, rejected or quarantined: nothing changed (import again with reopen to review it again). */
        ALREADY_DECIDED("decided", "already decided; not changed (import with --reopen to review it again)"),
        /** Decided before; the new revision is back in the queue, ahead of fresh work. */
        REOPENED("reopened", "new revision; decided before, back in the queue");

        private final String code;
        private final String description;

        Kind(String code, String description) {
            this.code = code;
            this.description = description;
        }

        /** The short name reports for programs use: revised, revised_held, returned, decided or reopened. */
        public String code() {
            return code;
        }

        /** In plain words, for reports. */
        public String description() {
            return description;
        }

        /** The kind for a result code of import_articles, or null for "imported" and "present". */
        static Kind fromCode(String code) {
            for (Kind k : values()) {
                if (k.code.equals(code)) {
                    return k;
                }
            }
            return null;
        }
    }
}
