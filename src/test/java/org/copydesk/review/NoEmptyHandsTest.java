package org.copydesk.review;

import static org.assertj.core.api.Assertions.assertThat;

import static org.copydesk.db.schema.Tables.ARTICLE;

import java.sql.Connection;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import org.copydesk.db.schema.enums.ArticleStatus;
import org.copydesk.lease.ClaimStrategyKind;
import org.copydesk.lease.ServerClock;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.TestDatabase;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * An editor who presses Get articles while work waits gets a full hand, whatever the strategy and
 * however many others press it at the same moment: a claim comes back with fewer articles than
 * asked only when fewer are claimable. Editors claim in step (every round's claims start together,
 * so they meet head on over the same rows at the head of the queue), approve what they got, and claim
 * again; the queue always holds far more than all of them ask for, so every claim must be full.
 *
 * <p>{@link #aClaimPassesOverTheRowsAnotherClaimIsTaking} holds the claim whose rows others are taking
 * still: another transaction takes the head of the queue (as a claim in progress does) and commits a
 * moment after the claim started; the claim must come back with articles from further down.
 *
 * <p>The size is the smallest that caught short hands every time it was run against the claim that
 * read one list of candidates and stopped when it was used up: 8 editors of 5, 6 rounds (BLOCKING
 * read 20 candidates, so 8 claimers in step left most of them empty; OPTIMISTIC's window of 40
 * left some short).
 */
class NoEmptyHandsTest extends OperationsFixture {

    static final int EDITORS = 8;
    static final int CAPACITY = 5;
    static final int ROUNDS = 6;
    /** Ten times what all the rounds take together. */
    static final int WAITING = EDITORS * CAPACITY * ROUNDS * 10;

    NoEmptyHandsTest(TestDatabase db) {
        super(db);
    }

    @ParameterizedTest
    @EnumSource(ClaimStrategyKind.class)
    void claimsInStepEachGetAFullHandWhileWorkWaits(ClaimStrategyKind strategy) throws Exception {
        Newsroom newsroom = new Newsroom(dsl, operations);
        List<String> editors = new ArrayList<>();
        for (int i = 0; i < EDITORS; i++) {
            editors.add("hand" + i);
            newsroom.addEditor("hand" + i, "Hand " + i, Role.EDITOR, CAPACITY, List.of("news"));
        }
        for (int priority = 1; priority <= 3; priority++) {
            Fixtures.articles(dsl, "news", WAITING / 3, priority, -600);
        }
        dsl.execute("analyze table article");

        ReviewProcedures procedures = procedures(strategy);
        CyclicBarrier inStep = new CyclicBarrier(EDITORS);
        List<String> shortHands = Collections.synchronizedList(new ArrayList<>());
        List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
        List<Thread> threads = new ArrayList<>();
        for (String editor : editors) {
            Thread t = new Thread(() -> {
                try {
                    for (int round = 1; round <= ROUNDS; round++) {
                        inStep.await(30, TimeUnit.SECONDS);
                        ReviewProcedures.Claimed claimed = procedures.claim(editor, null, null, null);
                        if (claimed.claimed() < CAPACITY) {
                            shortHands.add(editor + " got " + claimed.claimed() + " of " + CAPACITY + " in round " + round);
                        }
                        for (HeldArticle held : claimed.held()) {
                            procedures.decide(editor, held.lease(), UUID.randomUUID(), Verdict.APPROVE, "");
                        }
                    }
                } catch (Exception | AssertionError e) {
                    failures.add(e);
                    inStep.reset();
                }
            }, "hand-" + editor);
            threads.add(t);
            t.start();
        }
        for (Thread t : threads) {
            t.join(120_000);
        }

        assertThat(failures).isEmpty();
        assertThat(shortHands).as("claims that came back short while %d articles waited (%s)", WAITING, strategy).isEmpty();
    }

    /** The rows at the head of the queue a transaction is taking while the claim starts. */
    static final int BEING_TAKEN = 100;

    @ParameterizedTest
    @EnumSource(ClaimStrategyKind.class)
    void aClaimPassesOverTheRowsAnotherClaimIsTaking(ClaimStrategyKind strategy) throws Exception {
        Fixtures.articles(dsl, "news", 1000, 2, -600);
        dsl.execute("analyze table article");
        List<Long> head = dsl.select(ARTICLE.ID).from(ARTICLE).where(ARTICLE.STATUS.eq(ArticleStatus.queued))
                .orderBy(ARTICLE.PRIORITY, ARTICLE.QUEUE_LANE, ARTICLE.AVAILABLE_AT, ARTICLE.ID).limit(BEING_TAKEN)
                .fetch(ARTICLE.ID);
        try (Connection taker = db.database().dataSource().getConnection()) {
            taker.setAutoCommit(false);
            DSLContext taking = DSL.using(taker, dsl.dialect());
            // what a claim in progress does to the rows it takes: a new owner and token, not yet committed
            taking.update(ARTICLE).set(ARTICLE.LOCKED_BY, "taker").set(ARTICLE.LEASE_TOKEN, ARTICLE.LEASE_TOKEN.plus(1))
                    .set(ARTICLE.EXPIRES_AT, ServerClock.nowPlus(NEWS_LEASE)).where(ARTICLE.ID.in(head)).execute();
            List<ReviewProcedures.Claimed> answer = Collections.synchronizedList(new ArrayList<>());
            List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
            Thread claim = new Thread(() -> {
                try {
                    answer.add(procedures(strategy).claim("ann", null, null, null));
                } catch (RuntimeException e) {
                    failures.add(e);
                }
            }, "claim-behind-a-taker");
            claim.start();
            claim.join(300); // the claim has read the queue by now, and the strategies that wait are waiting
            taker.commit();
            claim.join(30_000);

            assertThat(failures).isEmpty();
            assertThat(answer).hasSize(1);
            assertThat(answer.get(0).claimed()).as("articles ann got (%s) while %d waited behind %d being taken", strategy,
                    1000 - BEING_TAKEN, BEING_TAKEN).isEqualTo(5);
            assertThat(ids(answer.get(0))).doesNotContainAnyElementsOf(head);
        }
    }
}
