package org.copydesk.review;

import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.db.schema.Tables.ARTICLE;

import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.copydesk.db.DataSources;
import org.copydesk.db.Database;
import org.copydesk.db.schema.enums.ArticleStatus;
import org.copydesk.lease.ClaimStrategyKind;
import org.copydesk.lease.ServerClock;
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

/**
 * What one Get articles costs the server, counted by the server itself (the session's
 * {@code Handler_read_*} counters include the statements inside the procedure), not timed: a claim
 * of 5 reads a bounded number of index entries and rows, however long the queue is (here about 50
 * for SKIP_LOCKED, and a few hundred for BLOCKING and OPTIMISTIC, which read from a random place among
 * the first 155 waiting articles and look up each row they pass). A candidate query the
 * optimizer cannot stop early (a sort, or a window function over the whole queue, as one version
 * of the BLOCKING and OPTIMISTIC claim had: 18,000 reads here, 6 claims a second on 200,000
 * articles) reads every waiting article, several times.
 *
 * <p>And what claims cost when {@value #CLAIMERS} editors press Get articles at the same moment
 * ({@link #sixtyFourClaimsAtOnceEachGetAFullHandForAFewDozenReadsPerArticle}): each is full, and the
 * server reads a few dozen entries and rows per article handed out (here 14 for SKIP_LOCKED, 35-40
 * for the others). Before, BLOCKING came back empty there, and every claim that ended below the
 * editor's capacity looked for the next article due by reading every waiting article of the desk:
 * over 300 reads per article handed out, whatever the strategy, and 140,000 on 200,000 articles.
 */
@ExtendWith(DatabaseExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ClaimCostTest {

    private static final int QUEUED = 3000;

    /** Editors claiming at once. */
    static final int CLAIMERS = 64;
    /** Rounds of claims in step: from the second on, the first rounds' articles are held at the head of the queue. */
    static final int ROUNDS = 2;
    /** Index entries and rows read per article handed out, at most, with {@value #CLAIMERS} claims at once. */
    static final int READS_PER_ARTICLE_AT_ONCE = 60;

    private final DSLContext dsl;
    private final TestDatabase db;

    ClaimCostTest(TestDatabase db) {
        this.db = db;
        this.dsl = db.dsl();
    }

    @BeforeAll
    void aLongQueue() {
        Fixtures.emptyNewsroom(dsl);
        Newsroom newsroom = new Newsroom(dsl);
        newsroom.addDesk("news", "News", Duration.ofMinutes(30));
        for (ClaimStrategyKind strategy : ClaimStrategyKind.values()) {
            newsroom.addEditor(editorFor(strategy), "Cost " + strategy, Role.EDITOR, 5, List.of("news"));
        }
        for (int i = 0; i < CLAIMERS; i++) {
            newsroom.addEditor(claimer(i), "Cost claimer " + i, Role.EDITOR, 5 * ROUNDS, List.of("news"));
        }
        for (int priority = 1; priority <= 3; priority++) {
            Fixtures.articles(dsl, "news", QUEUED / 3, priority, -3600);
        }
        dsl.execute("analyze table article");
    }

    @ParameterizedTest
    @EnumSource(ClaimStrategyKind.class)
    void aClaimOfFiveReadsAFewDozenRowsNotTheQueue(ClaimStrategyKind strategy) {
        long rowsRead = dsl.connectionResult(connection -> {
            DSLContext session = DSL.using(connection, dsl.dialect());
            long before = handlerReads(session);
            session.fetchMany("call claim_articles(?, ?, ?, ?, ?)", editorFor(strategy), null, null, null, strategy.name());
            return handlerReads(session) - before;
        });

        assertThat(dsl.fetchCount(ARTICLE, ARTICLE.LOCKED_BY.eq(editorFor(strategy)))).isEqualTo(5);
        assertThat(rowsRead).as("index entries and rows the server read for one claim of 5 (%s)", strategy)
                .isLessThan(QUEUED / 5);
    }

    /**
     * The articles held right now sit at the head of the queue (a held article stays 'queued' until
     * its decision): 320 of them with 64 editors of 5. A SKIP_LOCKED claim must not read its way past
     * each of them (V13, ix_article_free); before V13 this claim read 497 entries and rows.
     */
    @org.junit.jupiter.api.Test
    void aSkipLockedClaimDoesNotReadPastTheArticlesOthersHold() {
        int held = 400;
        List<Long> head = dsl.select(ARTICLE.ID).from(ARTICLE).where(ARTICLE.STATUS.eq(ArticleStatus.queued))
                .and(ARTICLE.LOCKED_BY.isNull())
                .orderBy(ARTICLE.PRIORITY, ARTICLE.QUEUE_LANE, ARTICLE.AVAILABLE_AT, ARTICLE.ID).limit(held).fetch(ARTICLE.ID);
        new Newsroom(dsl).addEditor("cost_behind", "Cost behind", Role.EDITOR, 5, List.of("news"));
        dsl.update(ARTICLE).set(ARTICLE.LOCKED_BY, "someone_else").set(ARTICLE.LEASE_TOKEN, 1L)
                .set(ARTICLE.EXPIRES_AT, ServerClock.nowPlus(Duration.ofMinutes(30))).where(ARTICLE.ID.in(head)).execute();
        try {
            long rowsRead = dsl.connectionResult(connection -> {
                DSLContext session = DSL.using(connection, dsl.dialect());
                long before = handlerReads(session);
                session.fetchMany("call claim_articles(?, ?, ?, ?, ?)", "cost_behind", null, null, null, "SKIP_LOCKED");
                return handlerReads(session) - before;
            });

            assertThat(dsl.select(ARTICLE.ID).from(ARTICLE).where(ARTICLE.LOCKED_BY.eq("cost_behind")).fetch(ARTICLE.ID))
                    .hasSize(5).doesNotContainAnyElementsOf(head);
            assertThat(rowsRead).as("index entries and rows read for a claim of 5 behind %d held articles", held)
                    .isLessThan(held / 4);
        } finally {
            dsl.update(ARTICLE).setNull(ARTICLE.LOCKED_BY).setNull(ARTICLE.EXPIRES_AT)
                    .where(ARTICLE.LOCKED_BY.in("someone_else", "cost_behind")).execute();
        }
    }

    @ParameterizedTest
    @EnumSource(ClaimStrategyKind.class)
    void sixtyFourClaimsAtOnceEachGetAFullHandForAFewDozenReadsPerArticle(ClaimStrategyKind strategy) throws Exception {
        AtomicLong reads = new AtomicLong();
        AtomicLong handedOut = new AtomicLong();
        List<String> shortHands = Collections.synchronizedList(new ArrayList<>());
        List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
        try (Database claimers = Database.open(db.url(), db.endpoint().user(), db.endpoint().password().toCharArray(), null,
                new DataSources.PoolSize(CLAIMERS, CLAIMERS), Database.SchemaAction.NONE, null)) {
            CyclicBarrier inStep = new CyclicBarrier(CLAIMERS);
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < CLAIMERS; i++) {
                String editor = claimer(i);
                Thread t = new Thread(() -> {
                    try (Connection connection = claimers.dataSource().getConnection()) {
                        DSLContext session = DSL.using(connection, dsl.dialect());
                        for (int round = 1; round <= ROUNDS; round++) {
                            inStep.await(60, TimeUnit.SECONDS);
                            long before = handlerReads(session);
                            var answer = claimRetryingConflicts(session, editor, 5 * round, strategy);
                            reads.addAndGet(handlerReads(session) - before);
                            int claimed = answer.get(0).get(0).get("claimed", Integer.class);
                            handedOut.addAndGet(claimed);
                            if (claimed < 5) {
                                shortHands.add(editor + " got " + claimed + " in round " + round);
                            }
                        }
                    } catch (Exception | AssertionError e) {
                        failures.add(e);
                        inStep.reset();
                    }
                }, "cost-" + editor);
                threads.add(t);
                t.start();
            }
            for (Thread t : threads) {
                t.join(180_000);
            }
        } finally {
            dsl.update(ARTICLE).setNull(ARTICLE.LOCKED_BY).setNull(ARTICLE.EXPIRES_AT).set(ARTICLE.QUEUE_LANE, 1)
                    .where(ARTICLE.LOCKED_BY.like("cost_claimer%")).execute();
        }

        assertThat(failures).isEmpty();
        assertThat(shortHands).as("claims that came back short (%s)", strategy).isEmpty();
        double perArticle = (double) reads.get() / handedOut.get();
        assertThat(perArticle).as("index entries and rows read per article handed out, %d claims of 5 at once, %d rounds (%s)",
                CLAIMERS, ROUNDS, strategy).isLessThan(READS_PER_ARTICLE_AT_ONCE);
    }

    /**
     * The claim as the product sends it: a deadlock (MySQL 8 picks victims among 64 claims taking
     * rows in different orders) is run again, a few times at most, as {@code DatabaseOperations}
     * does; the reads of a rolled-back try count too.
     */
    private static org.jooq.Results claimRetryingConflicts(DSLContext session, String editor, int limit,
                                                          ClaimStrategyKind strategy) {
        for (int attempt = 1; ; attempt++) {
            try {
                return session.fetchMany("call claim_articles(?, ?, ?, ?, ?)", editor, null, limit, null, strategy.name());
            } catch (org.jooq.exception.DataAccessException e) {
                if (attempt == 5 || org.copydesk.lease.SqlFailure.of(e) != org.copydesk.lease.SqlFailure.CONFLICT) {
                    throw e;
                }
            }
        }
    }

    private static String claimer(int i) {
        return "cost_claimer" + i;
    }

    private static String editorFor(ClaimStrategyKind strategy) {
        return "cost_" + strategy.name().toLowerCase(java.util.Locale.ROOT);
    }

    /** Every row or index entry the session's statements have read so far. */
    private static long handlerReads(DSLContext session) {
        return session.fetch("show session status like 'Handler_read%'").stream()
                .mapToLong(r -> Long.parseLong(r.get(1, String.class))).sum();
    }
}
