package org.copydesk.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.db.schema.Tables.ARTICLE;

import java.time.Duration;
import java.util.List;
import org.copydesk.db.schema.enums.ArticleStatus;
import org.copydesk.review.ArticleLeases;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.TestDatabase;
import org.jooq.DSLContext;
import org.jooq.Query;
import org.jooq.Record;
import org.jooq.Result;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The claim's candidate query, exactly as the engine builds it, must walk ix_article_claim in claim
 * order and stop after its limit. A locking read locks every row it scans: if the server sorted
 * instead, every claim would lock every waiting article (see STACK-NOTES: ~11 rows/s and a server
 * out of lock memory at 200k rows).
 */
@ExtendWith(DatabaseExtension.class)
class ClaimQueryPlanTest {

    private final DSLContext dsl;
    private final LeaseSql sql = new LeaseSql(ArticleLeases.TABLE, ArticleLeases.EVENTS);

    ClaimQueryPlanTest(TestDatabase db) {
        this.dsl = db.dsl();
    }

    @BeforeAll
    static void aQueueWorthPlanning(TestDatabase db) {
        DSLContext dsl = db.dsl();
        Fixtures.clear(dsl);
        // Enough rows, in every priority, some finished and some held, for the optimizer's
        // statistics to look like a real queue rather than a table it would rather scan whole.
        for (int priority = 1; priority <= 5; priority++) {
            Fixtures.articles(dsl, "news", 1000, priority, -3600);
        }
        dsl.update(ARTICLE).set(ARTICLE.STATUS, ArticleStatus.approved).where(ARTICLE.ID.mod(7).eq(0L)).execute();
        dsl.update(ARTICLE).set(ARTICLE.LOCKED_BY, "someone").set(ARTICLE.EXPIRES_AT, ServerClock.nowPlus(Duration.ofMinutes(5)))
                .set(ARTICLE.QUEUE_LANE, 0).where(ARTICLE.ID.mod(50).eq(1L)).execute();
        dsl.execute("analyze table article");
    }

    /** The scope the app's editors claim with: their desk's waiting, available articles. */
    private ClaimRequest request() {
        return new ClaimRequest(Owner.named("ann"), ARTICLE.STATUS.eq(ArticleStatus.queued)
                .and(ARTICLE.DESK_ID.eq("news")).and(ARTICLE.AVAILABLE_AT.le(ServerClock.now())), ArticleLeases.ORDER, 5,
                Duration.ofMinutes(5));
    }

    @Test
    void skipLockedClaimWalksTheClaimIndexWithoutSorting() {
        assertWalksTheClaimIndex(ClaimSteps.candidates(dsl, sql, request(), 5).forUpdate().skipLocked());
    }

    @Test
    void blockingClaimWalksTheClaimIndexWithoutSorting() {
        assertWalksTheClaimIndex(ClaimSteps.candidates(dsl, sql, request(), 5).forUpdate());
    }

    @Test
    void optimisticCandidateReadWalksTheClaimIndexWithoutSorting() {
        assertWalksTheClaimIndex(ClaimSteps.candidates(dsl, sql, request(), 20));
    }

    private void assertWalksTheClaimIndex(Query query) {
        String statement = dsl.renderInlined(query);
        Result<Record> plan = dsl.fetch("explain " + statement);
        assertThat(plan).as("one table, one plan row: %s", statement).hasSize(1);
        Record row = plan.get(0);
        String extra = String.valueOf(row.get("Extra"));
        assertThat(row.get("key", String.class)).as("index used by %s\nplan: %s", statement, plan).isEqualTo("ix_article_claim");
        assertThat(extra).as("plan of %s", statement).doesNotContainIgnoringCase("filesort")
                .doesNotContainIgnoringCase("temporary");
        assertThat(row.get("type", String.class)).as("access type").isIn(List.of("range", "ref"));
    }
}
