package org.copydesk.review;

import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.ARTICLE_REVISION;

import java.util.Optional;
import org.copydesk.lease.Lease;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;

/**
 * The text the holder of a lease reads: the revision the lease was handed ({@code held_revision}),
 * which stays what they read — and what their decision is recorded against — when a newer
 * revision arrives meanwhile, until they take the new one ({@link ReviewDecisions#takeNewestRevision}).
 * The article row itself already carries the newest text. Read-only, one statement, from tables
 * every role may read.
 */
public final class HeldRevisions {

    private final DSLContext dsl;

    HeldRevisions(DSLContext dsl) {
        this.dsl = dsl;
    }

    /** The revision this lease was handed, with its text; empty when the lease is no longer the article's. */
    public Optional<ArticleRevision> handed(Lease lease) {
        long articleId = ((Number) lease.key().single()).longValue();
        return dsl.select(ARTICLE_REVISION.REVISION, ARTICLE_REVISION.TITLE, ARTICLE_REVISION.BYLINE, ARTICLE_REVISION.BODY)
                .from(ARTICLE)
                .join(ARTICLE_REVISION).on(ARTICLE_REVISION.ARTICLE_ID.eq(ARTICLE.ID)
                        .and(ARTICLE_REVISION.REVISION.eq(DSL.coalesce(ARTICLE.HELD_REVISION, ARTICLE.REVISION))))
                .where(ARTICLE.ID.eq(articleId)).and(ARTICLE.LEASE_TOKEN.eq(lease.token()))
                .fetchOptional(r -> new ArticleRevision(r.value1(), r.value2(), r.value3(), r.value4()));
    }
}
