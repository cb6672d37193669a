package org.copydesk.review;

import static org.copydesk.db.schema.Tables.ARTICLE;

import java.time.LocalDateTime;
import java.util.List;
import org.copydesk.db.schema.enums.ArticleStatus;
import org.copydesk.review.imports.ImportCalls;
import org.jooq.DSLContext;

/**
 * Articles out of the queue: marked unreviewable, or sent back too often. A supervisor corrects
 * and requeues them.
 */
public final class ArticleQuarantine {

    /** One quarantined article. {@code reason} is the editor's note that sent it here. */
    public record Entry(long id, String externalId, String desk, String title, int attempts, String reason,
                        String decidedBy, LocalDateTime since) {
    }

    private final DSLContext dsl;
    private final ImportCalls calls;

    ArticleQuarantine(DSLContext dsl, DatabaseOperations operations) {
        this.dsl = dsl;
        this.calls = new ImportCalls(operations);
    }

    public List<Entry> list() {
        return dsl.selectFrom(ARTICLE).where(ARTICLE.STATUS.eq(ArticleStatus.quarantined)).orderBy(ARTICLE.UPDATED_AT.desc())
                .fetch(r -> new Entry(r.getId(), r.getExternalId(), r.getDeskId(), r.getTitle(), r.getAttempts(),
                        r.getDecisionNote(), r.getDecidedBy(), r.getUpdatedAt()));
    }

    /**
     * Puts a quarantined article back in the queue, available now, with its send-back count reset;
     * a corrected title or body (null: unchanged) replaces the old one.
     */
    public void requeue(long articleId, String actor, String correctedTitle, String correctedBody, String note) {
        if (correctedTitle != null && correctedTitle.strip().length() > 300) {
            throw new IllegalArgumentException(Phrase.of("review.quarantine.titleTooLong").text());
        }
        calls.requeueArticle(actor, articleId, correctedTitle, correctedBody, note);
    }
}
