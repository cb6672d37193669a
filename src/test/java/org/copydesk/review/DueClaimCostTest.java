package org.copydesk.review;

import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.db.schema.Tables.ARTICLE;

import java.time.Duration;
import java.util.List;
import org.copydesk.lease.ClaimStrategyKind;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.TestDatabase;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * With a due time on every article, not in arrival order, a claim of 5 still reads a bounded number
 * of index entries and rows, counted by the server (as {@link ClaimCostTest} does without due
 * times): the claim index has the due time after the priority, so the claim walks it from its head
 * in claim order instead of sorting the queue, and the claim's plan is a range over that index.
 */
@ExtendWith(DatabaseExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DueClaimCostTest {

    private static final Logger log = LoggerFactory.getLogger(DueClaimCostTest.class);
    private static final int QUEUED = 3000;

    private final DSLContext dsl;

    DueClaimCostTest(TestDatabase db) {
        this.dsl = db.dsl();
    }

    @BeforeAll
    void aLongQueueDueAtManyTimes() {
        Fixtures.emptyNewsroom(dsl);
        Newsroom newsroom = new Newsroom(dsl);
        newsroom.addDesk("news", "News", Duration.ofMinutes(30));
        for (ClaimStrategyKind strategy : ClaimStrategyKind.values()) {
            newsroom.addEditor("due_cost_" + strategy.name().toLowerCase(java.util.Locale.ROOT), "Cost " + strategy, Role.EDITOR, 5,
                    List.of("news"));
        }
        for (int priority = 1; priority <= 3; priority++) {
            Fixtures.articles(dsl, "news", QUEUED / 3, priority, -3600);
        }
        // due times over the next day, not in arrival order, as the claim benchmark's bench.due sets them
        dsl.execute("update article set due_at = timestampadd(second, 3600 + (id * 7919) % 86400, utc_timestamp(3)),"
                + " due_order = claim_due_order(due_at)");
        dsl.execute("analyze table article");
    }

    @ParameterizedTest
    @EnumSource(ClaimStrategyKind.class)
    void aClaimOfFiveReadsAFewDozenRowsNotTheQueueAndTakesTheEarliestDue(ClaimStrategyKind strategy) {
        String editor = "due_cost_" + strategy.name().toLowerCase(java.util.Locale.ROOT);
        List<Long> earliest = dsl.select(ARTICLE.ID).from(ARTICLE).where(ARTICLE.LOCKED_BY.isNull()).and(ARTICLE.PRIORITY.eq(1))
                .orderBy(ARTICLE.DUE_ORDER, ARTICLE.QUEUE_LANE, ARTICLE.AVAILABLE_AT, ARTICLE.ID).limit(5).fetch(ARTICLE.ID);
        long rowsRead = dsl.connectionResult(connection -> {
            var session = DSL.using(connection, dsl.dialect());
            long before = handlerReads(session);
            session.fetchMany("call claim_articles(?, ?, ?, ?, ?)", editor, null, null, null, strategy.name());
            return handlerReads(session) - before;
        });
        log.info("a claim of 5 ({}) with a due time on each of {} articles read {} index entries and rows", strategy, QUEUED,
                rowsRead);

        assertThat(dsl.select(ARTICLE.ID).from(ARTICLE).where(ARTICLE.LOCKED_BY.eq(editor)).fetch(ARTICLE.ID))
                .containsExactlyInAnyOrderElementsOf(earliest);
        assertThat(rowsRead).as("index entries and rows the server read for one claim of 5 (%s)", strategy).isLessThan(QUEUED / 5);
    }

    /**
     * The plan of the default claim's read (the cursor {@code skipping_free} of R__claim_articles.sql, as the
     * file has it, its variables given the values a claim of 5 by one editor on News has): a range over
     * {@code ix_article_free} in claim order, no sort, so a claim reads from the head of the queue
     * however the due times lie. Logged for docs/benchmarks.md ("Due times on every article").
     */
    @org.junit.jupiter.api.Test
    void theDefaultClaimReadsItsIndexInClaimOrderWithoutASort() throws Exception {
        String routine = java.nio.file.Files.readString(java.nio.file.Path.of("db/routines/R__claim_articles.sql"));
        java.util.regex.Matcher cursor = java.util.regex.Pattern.compile("DECLARE skipping_free CURSOR FOR (SELECT .*?);",
                java.util.regex.Pattern.DOTALL).matcher(routine);
        assertThat(cursor.find()).as("the claim's cursor in R__claim_articles.sql").isTrue();
        String read = cursor.group(1).replaceAll("--[^\n]*", " ")
                .replace("v_now", "utc_timestamp(6)").replace("v_desks", "'news'").replace("v_stages", "''")
                .replace("v_actor", "'due_cost_skip_locked'").replace("LIMIT v_want", "LIMIT 5");
        assertThat(read).as("every variable given a value").doesNotContain("v_");
        org.jooq.Result<org.jooq.Record> plan = dsl.fetch("EXPLAIN " + read);
        log.info("the default claim's read with a due time on each of {} articles:\n{}", QUEUED, plan.format());
        assertThat(plan).as("one table read").hasSize(1);
        org.jooq.Record only = plan.get(0);
        assertThat(only.get("key", String.class)).isEqualTo("ix_article_free");
        assertThat(only.get("Extra", String.class)).as("no sort: the index is in claim order").doesNotContainIgnoringCase("filesort");
    }

    private static long handlerReads(DSLContext session) {
        return session.fetch("show session status like 'Handler_read%'").stream()
                .mapToLong(r -> Long.parseLong(r.get(1, String.class))).sum();
    }
}
