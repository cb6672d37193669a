package org.copydesk.review;

import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.DECISION;
import static org.copydesk.db.schema.Tables.LEASE_EVENT;
import static org.copydesk.db.schema.Tables.OUTCOME_EVENT;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.copydesk.db.schema.enums.ArticleStatus;
import org.copydesk.lease.ClaimStrategyKind;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.TestDatabase;
import org.jooq.Record4;
import org.jooq.Result;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Several editors at every stage of a three-stage desk at once (Copy edit → Legal, when asked →
 * Sign-off, four eyes), for each claim strategy: Ann, Bob and Dan take Copy edit and Sign-off,
 * Lee takes Legal; each claims, approves what it holds (asking for Legal on every other article
 * at Copy edit) and claims again until the desk is empty. Afterwards every article is approved
 * (none lost between stages), each stage it entered was decided exactly once in its one pass
 * (never held twice: one claim per decision, one stage at a time), Legal only when asked, and
 * no one signed off what they copy-edited.
 */
class StageChainRaceTest extends OperationsFixture {

    private static final int ARTICLES = 60;

    StageChainRaceTest(TestDatabase db) {
        super(db);
    }

    @BeforeEach
    void chain() {
        Newsroom n = new Newsroom(dsl, operations);
        n.addEditor("lee", "Lee Legal", Role.EDITOR, 5, List.of());
        n.addEditor("dan", "Dan Chief", Role.EDITOR, 5, List.of("news"));
        StageChainContractTest.threeStageNewsDesk(ReviewStages.over(dsl), "lee");
    }

    @ParameterizedTest
    @EnumSource(ClaimStrategyKind.class)
    void editorsAtEveryStageAtOnceDecideEachStageOnceAndLoseNothing(ClaimStrategyKind strategy) throws Exception {
        List<Long> ids = Fixtures.articles(dsl, "news", ARTICLES, 3, -60);
        ReviewProcedures p = procedures(strategy);
        List<String> refusals = Collections.synchronizedList(new ArrayList<>());
        ExecutorService pool = Executors.newFixedThreadPool(4);
        List<Future<Integer>> work = new ArrayList<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        for (String editor : List.of("ann", "bob", "dan", "lee")) {
            work.add(pool.submit(() -> {
                int decided = 0;
                int idle = 0;
                while (System.nanoTime() < deadline && idle < 40) {
                    ReviewProcedures.Claimed claimed = p.claim(editor, null, null, null);
                    if (claimed.held().isEmpty()) {
                        idle++;
                        Thread.sleep(20);
                        continue;
                    }
                    idle = 0;
                    for (HeldArticle held : claimed.held()) {
                        String stage = dsl.fetchValue(ARTICLE.STAGE_ID, ARTICLE.ID.eq(held.id()));
                        List<String> ask = "copy".equals(stage) && held.id() % 2 == 0 ? List.of("legal") : List.of();
                        try {
                            ReviewProcedures.Decided d = p.decide(editor, held.lease(), UUID.randomUUID(), Verdict.APPROVE, "",
                                    null, ask);
                            assertThat(d.outcome()).isEqualTo(ReviewProcedures.DecideOutcome.RECORDED);
                            decided++;
                        } catch (OperationRefusedException e) {
                            refusals.add(editor + " at " + stage + ": " + e.getMessage());
                        }
                    }
                }
                return decided;
            }));
        }
        int decisions = 0;
        for (Future<Integer> f : work) {
            decisions += f.get(120, TimeUnit.SECONDS);
        }
        pool.shutdown();

        assertThat(refusals).as("no decision refused: the claim hands out only what the editor may decide").isEmpty();
        assertThat(dsl.fetchCount(ARTICLE, ARTICLE.STATUS.eq(ArticleStatus.approved))).as("every article through the chain")
                .isEqualTo(ARTICLES);
        int asked = (int) ids.stream().filter(id -> id % 2 == 0).count();
        assertThat(decisions).isEqualTo(ARTICLES * 2 + asked);
        Result<Record4<Long, String, Integer, String>> rows = dsl.select(DECISION.ARTICLE_ID, DECISION.STAGE_ID, DECISION.PASS,
                DECISION.EDITOR_ID).from(DECISION).orderBy(DECISION.ARTICLE_ID, DECISION.ID).fetch();
        Map<Long, Result<Record4<Long, String, Integer, String>>> byArticle = rows.intoGroups(DECISION.ARTICLE_ID);
        for (long id : ids) {
            List<String> path = byArticle.get(id).stream().map(r -> r.value2() + "@" + r.value3()).toList();
            assertThat(path).as("article %d: each stage it entered, once, in order, in one pass", id)
                    .containsExactlyElementsOf(id % 2 == 0 ? List.of("copy@1", "legal@1", "signoff@1") : List.of("copy@1", "signoff@1"));
            String copyEditor = byArticle.get(id).get(0).value4();
            String signedOff = byArticle.get(id).get(path.size() - 1).value4();
            assertThat(signedOff).as("four eyes on article %d", id).isNotEqualTo(copyEditor);
            if (id % 2 == 0) {
                assertThat(byArticle.get(id).get(1).value4()).isEqualTo("lee");
            }
            long claims = dsl.fetchCount(LEASE_EVENT, LEASE_EVENT.ROW_KEY.eq(Long.toString(id)).and(LEASE_EVENT.ACTION.eq("claim")));
            assertThat(claims).as("one claim per stage decided on article %d: never held twice", id).isEqualTo(path.size());
        }
        assertThat(dsl.fetchCount(OUTCOME_EVENT, OUTCOME_EVENT.OUTCOME.eq("stage_passed").and(OUTCOME_EVENT.ARTICLE_ID.in(ids))))
                .isEqualTo(ARTICLES + asked);
        assertThat(dsl.fetchCount(OUTCOME_EVENT, OUTCOME_EVENT.OUTCOME.eq("approved").and(OUTCOME_EVENT.ARTICLE_ID.in(ids))))
                .isEqualTo(ARTICLES);
    }
}
