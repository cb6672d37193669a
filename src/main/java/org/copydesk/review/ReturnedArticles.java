package org.copydesk.review;

import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.ARTICLE_REVISION;
import static org.copydesk.db.schema.Tables.DECISION;

import java.time.LocalDateTime;
import java.util.List;
import java.util.Optional;
import org.copydesk.db.schema.enums.DecisionVerdict;
import org.copydesk.db.schema.tables.records.ArticleRevisionRecord;
import org.jooq.DSLContext;
import org.jooq.Record;

/**
 * For the reviewer of an article that came back with its writer's revision: the revision that was
 * sent back, the notes that asked for the changes, and a word-level diff from it to the current
 * revision. Read-only, from tables every role may read.
 */
public final class ReturnedArticles {

    /**
     * What changed since the last send-back.
     *
     * @param sentBackRevision the revision the send-back was decided on
     * @param titleDiff        word diff of the title, sent-back revision to current
     * @param bodyDiff         word diff of the body, likewise
     */
    public record Returned(long articleId, int sentBackRevision, int currentRevision, String sentBackBy,
                           LocalDateTime sentBackAt, String notes, ArticleRevision sentBack, ArticleRevision current,
                           List<WordDiff.Segment> titleDiff, List<WordDiff.Segment> bodyDiff) {
    }

    private final DSLContext dsl;

    public ReturnedArticles(DSLContext dsl) {
        this.dsl = dsl;
    }

    /** Empty when the article was never sent back, or no newer revision came in since its last send-back. */
    public Optional<Returned> of(long articleId) {
        return Optional.ofNullable(dsl.fetchValue(ARTICLE.REVISION, ARTICLE.ID.eq(articleId)))
                .flatMap(current -> of(articleId, current));
    }

    /**
     * As {@link #of(long)}, with the diff up to {@code revision} rather than the newest: the one an
     * editor holding the article reads ({@link HeldRevisions}). Empty also when {@code revision} is
     * the one sent back.
     */
    public Optional<Returned> of(long articleId, int revision) {
        Record sendBack = dsl.select(DECISION.REVISION, DECISION.EDITOR_ID, DECISION.DECIDED_AT, DECISION.NOTES)
                .from(DECISION)
                .where(DECISION.ARTICLE_ID.eq(articleId)).and(DECISION.VERDICT.eq(DecisionVerdict.send_back))
                .and(DECISION.REVISION.isNotNull())
                .orderBy(DECISION.DECIDED_AT.desc(), DECISION.ID.desc())
                .limit(1).fetchOne();
        if (sendBack == null || sendBack.get(DECISION.REVISION) == revision) {
            return Optional.empty();
        }
        int sentBackRevision = sendBack.get(DECISION.REVISION);
        ArticleRevision old = revision(articleId, sentBackRevision);
        ArticleRevision now = revision(articleId, revision);
        return Optional.of(new Returned(articleId, sentBackRevision, revision, sendBack.get(DECISION.EDITOR_ID),
                sendBack.get(DECISION.DECIDED_AT), sendBack.get(DECISION.NOTES), old, now,
                WordDiff.between(old.title(), now.title()), WordDiff.between(old.body(), now.body())));
    }

    private ArticleRevision revision(long articleId, int revision) {
        ArticleRevisionRecord r = dsl.selectFrom(ARTICLE_REVISION)
                .where(ARTICLE_REVISION.ARTICLE_ID.eq(articleId)).and(ARTICLE_REVISION.REVISION.eq(revision)).fetchOne();
        return new ArticleRevision(revision, r.getTitle(), r.getByline(), r.getBody());
    }
}
