package org.copydesk.review;

import static org.copydesk.db.schema.Tables.ARTICLE;

import java.time.LocalDateTime;
import java.util.List;
import org.copydesk.db.schema.enums.ArticleStatus;
import org.copydesk.lease.ServerClock;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;

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

    public ArticleQuarantine(DSLContext dsl) {
        this.dsl = dsl;
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
        dsl.transaction(cfg -> {
            DSLContext tx = cfg.dsl();
            var update = tx.update(ARTICLE)
                    .set(ARTICLE.STATUS, ArticleStatus.queued)
                    .set(ARTICLE.ATTEMPTS, 0)
                    .set(ARTICLE.AVAILABLE_AT, ServerClock.now())
                    .set(ARTICLE.UPDATED_AT, ServerClock.now())
                    .set(ARTICLE.DECIDED_BY, DSL.castNull(ARTICLE.DECIDED_BY))
                    .set(ARTICLE.DECIDED_AT, DSL.castNull(ARTICLE.DECIDED_AT))
                    .set(ARTICLE.DECISION_NOTE, DSL.castNull(ARTICLE.DECISION_NOTE));
            if (correctedTitle != null && !correctedTitle.isBlank()) {
                if (correctedTitle.length() > 300) {
                    throw new IllegalArgumentException("A title is at most 300 characters.");
                }
                update = update.set(ARTICLE.TITLE, correctedTitle.strip());
            }
            if (correctedBody != null && !correctedBody.isBlank()) {
                update = update.set(ARTICLE.BODY, correctedBody);
            }
            int changed = update.where(ARTICLE.ID.eq(articleId)).and(ARTICLE.STATUS.eq(ArticleStatus.quarantined)).execute();
            if (changed == 0) {
                throw new IllegalArgumentException("Article " + articleId + " is not in quarantine.");
            }
            ArticleHistory.append(tx, articleId, "requeue", actor, note);
        });
    }
}
