package org.copydesk.review;

import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.DEADLINE_EVENT;
import static org.copydesk.db.schema.Tables.OUTCOME_EVENT;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.copydesk.lease.ClaimStrategyKind;
import org.copydesk.lease.ServerClock;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.TestDatabase;
import org.jooq.DSLContext;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * deadline_missed (docs/deadlines.md): when an article's due time passes while it is in review, the
 * sweep every client calls tells the feed once, however many clients sweep at the same moment; an
 * article decided in time, and one not due yet, are not told about.
 */
@ExtendWith(DatabaseExtension.class)
class DeadlineMissedTest {

    private static final int SWEEPERS = 8;
    private static final int CALLS_EACH = 10;

    private final TestDatabase db;
    private final DSLContext dsl;
    private final DueTimes dueTimes;
    private final ReviewProcedures procedures;

    DeadlineMissedTest(TestDatabase db) {
        this.db = db;
        this.dsl = db.dsl();
        this.dueTimes = DueTimes.over(dsl);
        this.procedures = new ReviewProcedures(DatabaseOperations.withDefaultRetries(dsl), ClaimStrategyKind.SKIP_LOCKED);
    }

    @BeforeEach
    void newsroom() {
        dsl.deleteFrom(OUTCOME_EVENT).execute();
        Fixtures.emptyNewsroom(dsl);
        Newsroom n = new Newsroom(dsl);
        n.addDesk("news", "News", Duration.ofMinutes(30));
        n.addEditor("ann", "Ann", Role.EDITOR, 5, List.of("news"));
        n.addEditor("sue", "Sue", Role.SUPERVISOR, 5, List.of("news"));
    }

    private Instant serverNow() {
        return dsl.select(ServerClock.now()).fetchOne(0, LocalDateTime.class).toInstant(ZoneOffset.UTC).truncatedTo(ChronoUnit.MILLIS);
    }

    @Test
    void aMissedDeadlineIsToldOnceWhileEightClientsSweepAtOnceAndNothingElseIsTold() throws Exception {
        Instant now = serverNow();
        List<Long> late = Fixtures.articles(dsl, "news", 30, 3, -600);
        for (int i = 0; i < late.size(); i++) {
            dueTimes.set("sue", late.get(i), now.minus(Duration.ofMinutes(1 + i)), "the web edition"); // claims compare minutes
        }
        long held = late.get(late.size() - 1); // the earliest due
        ReviewProcedures.Claimed ann = procedures.claim("ann", null, 1, null);
        assertThat(ann.held()).extracting(HeldArticle::id).containsExactly(held);
        long notYet = Fixtures.articles(dsl, "news", 1, 3, -600).get(0);
        dueTimes.set("sue", notYet, now.plus(Duration.ofHours(1)), "print");
        long decidedInTime = Fixtures.articles(dsl, "news", 1, 1, -600).get(0);
        dueTimes.set("sue", decidedInTime, now.plus(Duration.ofMinutes(5)), "print");
        HeldArticle first = procedures.claim("ann", null, 2, null).held().stream().filter(h -> h.id() == decidedInTime)
                .findFirst().orElseThrow();
        procedures.decide("ann", first.lease(), UUID.randomUUID(), Verdict.APPROVE, "");
        // its due time passes after the decision (the owner moves the clock of this one article back)
        LocalDateTime longAgo = LocalDateTime.of(2000, 1, 1, 0, 0);
        dsl.update(ARTICLE).set(ARTICLE.DUE_AT, longAgo).set(ARTICLE.DUE_WATCH_AT, longAgo).where(ARTICLE.ID.eq(decidedInTime))
                .execute();

        CyclicBarrier start = new CyclicBarrier(SWEEPERS);
        ExecutorService pool = Executors.newFixedThreadPool(SWEEPERS);
        List<Future<?>> sweeps = new ArrayList<>();
        for (int i = 0; i < SWEEPERS; i++) {
            boolean viaTurn = i % 2 == 0;
            sweeps.add(pool.submit(() -> {
                try (Connection c = DriverManager.getConnection(db.endpoint().url(db.name()), db.endpoint().user(),
                        db.endpoint().password()); Statement s = c.createStatement()) {
                    start.await();
                    for (int call = 0; call < CALLS_EACH; call++) {
                        if (viaTurn) {
                            // every call finds the turn due, as if each client's tick came at once
                            s.execute("UPDATE sweep_turn SET due_at = '2000-01-01 00:00:00' WHERE id = 1");
                            Attacks.runs(s, "CALL take_sweep_turn(5000)");
                        } else {
                            // and the deadline part itself at once, past the turn's guard
                            s.execute("CALL report_missed_deadlines(7)");
                        }
                    }
                }
                return null;
            }));
        }
        for (Future<?> f : sweeps) {
            f.get();
        }
        pool.shutdown();

        List<Long> told = dsl.select(OUTCOME_EVENT.ARTICLE_ID).from(OUTCOME_EVENT).where(OUTCOME_EVENT.OUTCOME.eq("deadline_missed"))
                .fetch(OUTCOME_EVENT.ARTICLE_ID);
        assertThat(told).as("each late article once").containsExactlyInAnyOrderElementsOf(late);
        assertThat(dsl.fetchCount(DEADLINE_EVENT, DEADLINE_EVENT.KIND.eq("deadline_missed"))).isEqualTo(late.size());
        assertThat(dsl.fetchValue(OUTCOME_EVENT.EDITOR_ID, OUTCOME_EVENT.ARTICLE_ID.eq(held))).as("the holder is named")
                .isEqualTo("ann");
        assertThat(dsl.fetchValue(OUTCOME_EVENT.DUE_AT, OUTCOME_EVENT.ARTICLE_ID.eq(late.get(3))))
                .isEqualTo(LocalDateTime.ofInstant(now.minus(Duration.ofMinutes(4)), ZoneOffset.UTC));
        assertThat(dsl.fetchCount(ARTICLE, ARTICLE.DUE_WATCH_AT.isNotNull())).as("only the one not due yet is watched")
                .isEqualTo(1);
        assertThat(dsl.fetchValue(ARTICLE.DUE_WATCH_AT, ARTICLE.ID.eq(notYet))).isNotNull();

        // moved later and missed again: a new due time, told once more
        dueTimes.set("sue", late.get(5), serverNow().minusSeconds(1), "the edition moved, and was missed");
        dsl.update(org.copydesk.db.schema.Tables.SWEEP_TURN).set(org.copydesk.db.schema.Tables.SWEEP_TURN.DUE_AT,
                LocalDateTime.of(2000, 1, 1, 0, 0)).execute();
        dsl.fetchMany("CALL take_sweep_turn(5000)");
        assertThat(dsl.fetchCount(OUTCOME_EVENT, OUTCOME_EVENT.ARTICLE_ID.eq(late.get(5)))).isEqualTo(2);
    }
}
