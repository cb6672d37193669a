package org.copydesk.review;

import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.DECISION;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.copydesk.lease.ClaimStrategyKind;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.TestDatabase;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Editors racing through the database's operations (claim_articles, decide_article) with each
 * strategy: no article decided twice, and no deadlock or lock wait reaches an editor: the call is
 * retried. (A deadlock once left the session inside a transaction and the
 * retried call failed with "Transaction characteristics can't be changed", error 1568; every
 * operation now starts with ROLLBACK.)
 */
@ExtendWith(DatabaseExtension.class)
class ProcedureRaceTest {

    private static final int EDITORS = 8;
    private static final Duration RUN = Duration.ofSeconds(4);

    private final DSLContext dsl;
    private final TestDatabase db;

    ProcedureRaceTest(TestDatabase db) {
        this.db = db;
        this.dsl = db.dsl();
    }

    @ParameterizedTest
    @EnumSource(ClaimStrategyKind.class)
    void racingEditorsNeverShareOrDoubleDecideAndSeeNoDeadlocks(ClaimStrategyKind strategy) throws Exception {
        // Each strategy works its own desk: what an earlier run left behind (leases still
        // expiring, decisions) can neither be claimed nor counted here.
        String desk = "race_" + strategy.name().toLowerCase(java.util.Locale.ROOT);
        Newsroom newsroom = new Newsroom(dsl);
        newsroom.addDesk(desk, "Race " + strategy, Duration.ofMinutes(30));
        List<String> editors = new ArrayList<>();
        for (int i = 0; i < EDITORS; i++) {
            String id = desk + i;
            newsroom.addEditor(id, "Racer " + i + " " + strategy, Role.EDITOR, 5, List.of(desk));
            editors.add(id);
        }
        List<Long> articles = Fixtures.articles(dsl, desk, 400, 3, -60);
        List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger decided = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(EDITORS);
        // not closed: it would close the test's shared database
        ReviewSession services = new ReviewSession(db.database(), new ReviewSession.Options(strategy, Duration.ofSeconds(5)));
        {
            long until = System.nanoTime() + RUN.toNanos();
            for (String editor : editors) {
                new Thread(() -> {
                    try {
                        while (System.nanoTime() < until) {
                            for (HeldArticle held : services.queue().claim(editor).articles()) {
                                DecisionOutcome outcome = services.decisions().submit(new DecisionRequest(UUID.randomUUID(),
                                        held.id(), held.lease(), Verdict.APPROVE, ""));
                                assertThat(outcome).isInstanceOf(DecisionOutcome.Recorded.class);
                                decided.incrementAndGet();
                            }
                        }
                    } catch (Throwable t) {
                        failures.add(t);
                    } finally {
                        done.countDown();
                    }
                }, "racer-" + editor).start();
            }
            done.await();
        }
        // BLOCKING too: its claim locks by primary key, so a claim and a decision never deadlock
        // (a locking scan of the claim index did, until the retries ran out: issue 14)
        assertThat(failures).as("errors that reached editors").isEmpty();
        assertThat(decided.get()).isPositive();
        var ours = DECISION.ARTICLE_ID.in(articles);
        assertThat(dsl.select(DECISION.ARTICLE_ID).from(DECISION).where(ours).groupBy(DECISION.ARTICLE_ID)
                .having(DSL.count().gt(1)).fetch()).as("no article decided twice").isEmpty();
        assertThat(dsl.fetchCount(DECISION, ours))
                .as("one decision per decided article; by editor: %s", dsl.select(DECISION.EDITOR_ID, DSL.count())
                        .from(DECISION).where(ours).groupBy(DECISION.EDITOR_ID).fetch().formatCSV())
                .isEqualTo(decided.get());
        assertThat(dsl.fetchCount(ARTICLE, ARTICLE.ID.in(articles)
                .and(ARTICLE.STATUS.eq(org.copydesk.db.schema.enums.ArticleStatus.approved)))).isEqualTo(decided.get());
    }
}
