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
 * What a claim reads at each stage of a three-stage desk, against a desk without stages of the same
 * size, for each strategy (index entries and rows, the server's Handler_read counters, as
 * {@link ClaimCostTest} counts them): 3,000 articles on each desk, a third at each stage. The claim
 * index serves the claim order, not the desk or the stage (as for a desk, the stage is checked on
 * the rows walked), so a stage's claim reads past the other stages' articles ahead of its own in
 * claim order: the figures are logged per stage, and bounded by the queue.
 */
@ExtendWith(DatabaseExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class StageClaimCostTest {

    private static final Logger log = LoggerFactory.getLogger(StageClaimCostTest.class);
    private static final int PER_DESK = 3000;

    private final DSLContext dsl;

    StageClaimCostTest(TestDatabase db) {
        this.dsl = db.dsl();
    }

    @BeforeAll
    void desks() {
        Fixtures.emptyNewsroom(dsl);
        Newsroom n = new Newsroom(dsl);
        n.addDesk("news", "News", Duration.ofMinutes(30));
        n.addDesk("sport", "Sport", Duration.ofMinutes(30));
        n.addEditor("sc_lee", "Lee", Role.EDITOR, 5, List.of());
        StageChainContractTest.threeStageNewsDesk(ReviewStages.over(dsl), "sc_lee");
        List<Long> news = Fixtures.articles(dsl, "news", PER_DESK, 3, -3600);
        Fixtures.articles(dsl, "sport", PER_DESK, 3, -3600);
        // interleaved in claim order: every third article at each stage
        dsl.update(ARTICLE).set(ARTICLE.STAGE_ID, "legal").where(ARTICLE.ID.in(news)).and(ARTICLE.ID.mod(3).eq(1L)).execute();
        dsl.update(ARTICLE).set(ARTICLE.STAGE_ID, "signoff").where(ARTICLE.ID.in(news)).and(ARTICLE.ID.mod(3).eq(2L)).execute();
        dsl.execute("analyze table article");
    }

    private long rowsReadByAClaimOf5(String editor, String desks, ClaimStrategyKind strategy) {
        long read = dsl.connectionResult(connection -> {
            DSLContext session = DSL.using(connection, dsl.dialect());
            long before = handlerReads(session);
            session.fetchMany("call claim_articles(?, ?, ?, ?, ?)", editor, desks, 5, null, strategy.name());
            return handlerReads(session) - before;
        });
        assertThat(dsl.fetchCount(ARTICLE, ARTICLE.LOCKED_BY.eq(editor))).as("%s's claim (%s)", editor, strategy).isEqualTo(5);
        dsl.update(ARTICLE).setNull(ARTICLE.LOCKED_BY).setNull(ARTICLE.EXPIRES_AT).where(ARTICLE.LOCKED_BY.eq(editor)).execute();
        return read;
    }

    @ParameterizedTest
    @EnumSource(ClaimStrategyKind.class)
    void aClaimAtEachStageReadsAFewDozenRowsWhenItsStageIsSpreadThroughTheQueue(ClaimStrategyKind strategy) {
        Newsroom n = new Newsroom(dsl);
        String suffix = strategy.name().substring(0, 2).toLowerCase(java.util.Locale.ROOT);
        n.addEditor("sc_sport_" + suffix, "Sport", Role.EDITOR, 5, List.of("sport"));
        n.addEditor("sc_copy_" + suffix, "Copy", Role.EDITOR, 5, List.of("news"));
        n.addEditor("sc_sign_" + suffix, "Sign", Role.EDITOR, 5, List.of("news"));
        long sport = rowsReadByAClaimOf5("sc_sport_" + suffix, null, strategy);
        long copy = rowsReadByAClaimOf5("sc_copy_" + suffix, "news/copy", strategy);
        long legal = rowsReadByAClaimOf5("sc_lee", null, strategy);
        long signoff = rowsReadByAClaimOf5("sc_sign_" + suffix, "news/signoff", strategy);
        log.info("Rows read by a claim of 5 ({}), {} articles per desk: desk without stages {}, Copy edit {}, Legal {}, Sign-off {}",
                strategy, PER_DESK, sport, copy, legal, signoff);
        for (long stage : List.of(copy, legal, signoff)) {
            assertThat(stage).as("a stage's claim (%s) reads a few dozen rows, not the queue", strategy).isLessThan(PER_DESK / 10);
        }
    }

    private static long handlerReads(DSLContext session) {
        return session.fetch("show session status like 'Handler_read%'").stream()
                .mapToLong(r -> Long.parseLong(r.get(1, String.class))).sum();
    }
}
