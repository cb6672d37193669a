package org.copydesk.review;

import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.db.schema.Tables.ARTICLE;

import java.time.Duration;
import java.util.List;
import org.copydesk.db.schema.enums.ArticleStatus;
import org.copydesk.lease.ServerClock;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.TestDatabase;
import org.jooq.DSLContext;
import org.jooq.Record;
import org.jooq.Result;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The list watch runs every 3 s in every editor's window (200 of them in a large newsroom): each of
 * its reads must be an index range read, never a table scan, and the answer must be right.
 */
@ExtendWith(DatabaseExtension.class)
class ListWatchPlanTest {

    private final DSLContext dsl;
    private final ListWatch watch;

    ListWatchPlanTest(TestDatabase db) {
        this.dsl = db.dsl();
        this.watch = new ListWatch(db.dsl());
    }

    @BeforeAll
    static void aBusyQueue(TestDatabase db) {
        DSLContext dsl = db.dsl();
        Fixtures.clear(dsl);
        for (String desk : List.of("news", "sport", "culture", "legal")) {
            Fixtures.articles(dsl, desk, 1500, 3, -3600);
        }
        dsl.update(ARTICLE).set(ARTICLE.STATUS, ArticleStatus.approved).where(ARTICLE.ID.mod(3).eq(0L)).execute();
        dsl.update(ARTICLE).set(ARTICLE.LOCKED_BY, DSL_EDITOR).set(ARTICLE.EXPIRES_AT, ServerClock.nowPlus(Duration.ofMinutes(5)))
                .where(ARTICLE.ID.mod(1000).eq(1L)).execute();
        dsl.update(ARTICLE).set(ARTICLE.LOCKED_BY, "someone").set(ARTICLE.EXPIRES_AT, ServerClock.nowPlus(Duration.ofMinutes(5)))
                .where(ARTICLE.ID.mod(50).eq(2L)).execute();
        dsl.execute("analyze table article");
    }

    private static final String DSL_EDITOR = "ann";

    @Test
    void eachPartIsAnIndexRangeRead() {
        Result<Record> plan = dsl.fetch("explain " + watch.statement(DSL_EDITOR, List.of("news", "sport")));
        List<Record> tableReads = plan.stream().filter(r -> "article".equals(r.get("table", String.class))).toList();
        assertThat(tableReads).as("plan: %s", plan).hasSize(2);
        assertThat(tableReads).extracting(r -> r.get("key", String.class))
                .containsExactlyInAnyOrder("ix_article_locked_by", "ix_article_desk_status");
        assertThat(tableReads).extracting(r -> r.get("type", String.class)).allMatch(t -> t.equals("range") || t.equals("ref"));
        assertThat(plan.toString()).doesNotContainIgnoringCase("filesort");
    }

    @Test
    void atCapacityOnlyTheEditorsOwnLeasesAreRead() {
        Result<Record> plan = dsl.fetch("explain " + watch.statement(DSL_EDITOR, List.of()));
        assertThat(plan.stream().filter(r -> "article".equals(r.get("table", String.class))))
                .extracting(r -> r.get("key", String.class)).containsExactly("ix_article_locked_by");
    }

    @Test
    void theAnswerIsTheEditorsLeasesAndTheClaimableWorkUpToTheLimit() {
        ListWatch.Snapshot s = watch.read(DSL_EDITOR, List.of("news"));
        int ownLeases = dsl.fetchCount(ARTICLE, ARTICLE.LOCKED_BY.eq(DSL_EDITOR));
        assertThat(s.held()).hasSize(ownLeases).isNotEmpty();
        assertThat(s.held()).allSatisfy(h -> assertThat(s.remaining(h)).isPositive());
        assertThat(s.waiting()).hasSize(ListWatch.WAITING_LIMIT).allMatch(w -> w.desk().equals("news"));
        assertThat(s.serverNow()).isNotNull();

        ListWatch.Snapshot nobody = watch.read("nobody", List.of("nowhere"));
        assertThat(nobody.held()).isEmpty();
        assertThat(nobody.waiting()).isEmpty();
        assertThat(nobody.serverNow()).as("the clock row is always there").isNotNull();

        ListWatch.Snapshot atCapacity = watch.read(DSL_EDITOR, List.of());
        assertThat(atCapacity.held()).hasSize(ownLeases);
        assertThat(atCapacity.waiting()).isEmpty();
        assertThat(atCapacity.serverNow()).isNotNull();
        ListWatch.Snapshot allGone = watch.read("nobody", List.of());
        assertThat(allGone.held()).isEmpty();
        assertThat(allGone.serverNow()).as("at capacity with every lease gone, the clock is read alone").isNotNull();
    }
}
