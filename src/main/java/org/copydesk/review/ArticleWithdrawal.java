package org.copydesk.review;

import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.LEASE_EVENT;
import static org.copydesk.db.schema.Tables.OUTCOME_EVENT;

import java.util.Collection;
import java.util.List;
import java.util.Set;
import org.copydesk.AllowedBecause;
import org.jooq.DSLContext;

/**
 * Takes articles out of Copydesk altogether: the demo newsroom's (on a server where it was loaded
 * and is no longer wanted) or given ones (the sending system withdrew them). Each goes with its
 * revisions, drafts and decisions (the schema's cascades), its history, and its outcomes, delivered
 * or not, so nothing of it reaches a feed reader or the relay afterwards. One transaction; an
 * admin's task (the admin role may write the schema's tables; people's roles may not).
 */
public final class ArticleWithdrawal {

    private final DSLContext dsl;

    private ArticleWithdrawal(DSLContext dsl) {
        this.dsl = dsl;
    }

    /** For tools that opened the database themselves (the command line, as an admin). */
    public static ArticleWithdrawal of(ReviewSession session) {
        return new ArticleWithdrawal(session.database().dsl());
    }

    /** The demo newsroom's articles ({@code demo-0001} ... {@code demo-0320}) still here. */
    public List<Long> demoArticles() {
        return dsl.select(ARTICLE.ID, ARTICLE.EXTERNAL_ID).from(ARTICLE).where(ARTICLE.EXTERNAL_ID.like("demo-%"))
                .fetch().stream().filter(r -> DemoNewsroom.isDemoArticle(r.get(ARTICLE.EXTERNAL_ID)))
                .map(r -> r.get(ARTICLE.ID)).toList();
    }

    /** Withdraws the articles; refused, with nothing changed, when any of them does not exist. Returns how many went. */
    @AllowedBecause("an administrator's removal of articles the sending system withdrew (copydesk withdraw), like the"
            + " purge of old history; no person's role may delete articles")
    public int withdraw(Collection<Long> articleIds) {
        Set<Long> ids = Set.copyOf(articleIds);
        if (ids.isEmpty()) {
            return 0;
        }
        return dsl.transactionResult(cfg -> {
            DSLContext tx = cfg.dsl();
            List<Long> found = tx.select(ARTICLE.ID).from(ARTICLE).where(ARTICLE.ID.in(ids)).forUpdate().fetch(ARTICLE.ID);
            if (found.size() != ids.size()) {
                List<Long> missing = ids.stream().filter(id -> !found.contains(id)).sorted().toList();
                throw new IllegalArgumentException(Phrase.of("review.withdraw.noSuchArticle",
                        missing.stream().map(String::valueOf).collect(java.util.stream.Collectors.joining(", "))).text());
            }
            tx.deleteFrom(OUTCOME_EVENT).where(OUTCOME_EVENT.ARTICLE_ID.in(ids)).execute();
            tx.deleteFrom(LEASE_EVENT).where(LEASE_EVENT.RESOURCE.eq(ArticleLeases.RESOURCE))
                    .and(LEASE_EVENT.ROW_KEY.in(ids.stream().map(String::valueOf).toList())).execute();
            return tx.deleteFrom(ARTICLE).where(ARTICLE.ID.in(ids)).execute();
        });
    }
}
