package org.copydesk.review;

import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.db.schema.Tables.DEADLINE_EVENT;
import static org.copydesk.db.schema.Tables.DEADLINE_FORECAST_TURN;
import static org.copydesk.db.schema.Tables.OUTCOME_EVENT;
import static org.copydesk.db.schema.Tables.SWEEP_TURN;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.TestDatabase;
import org.jooq.DSLContext;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * deadline_at_risk (docs/deadlines.md, "The forecast"): the sweep every client calls forecasts each
 * desk at most once a minute and tells each article the forecast finds at risk once per due time,
 * however many clients sweep at the same moment; what is not at risk, late, or on another desk
 * with no pace is not told. A due time moved and still at risk is told again.
 */
@ExtendWith(DatabaseExtension.class)
class DeadlineAtRiskTest {

    private static final int SWEEPERS = 8;
    private static final int CALLS_EACH = 10;

    private final TestDatabase db;
    private final DSLContext dsl;
    private final ForecastDesk news;

    DeadlineAtRiskTest(TestDatabase db) {
        this.db = db;
        this.dsl = db.dsl();
        this.news = new ForecastDesk(dsl, "news");
    }

    @BeforeEach
    void newsroom() {
        dsl.deleteFrom(OUTCOME_EVENT).execute();
        dsl.deleteFrom(DEADLINE_FORECAST_TURN).execute();
        Fixtures.emptyNewsroom(dsl);
        Newsroom n = new Newsroom(dsl);
        n.addDesk("news", "News", Duration.ofMinutes(30));
        n.addDesk("sport", "Sport", Duration.ofMinutes(30));
        n.addEditor("ann", "Ann", Role.EDITOR, 5, List.of("news"));
    }

    /** 12 an hour: 300 s an article; the 2nd, 4th and 6th in line are due before their turn comes. */
    private List<Long> aDeskWithThreeAtRisk() {
        news.decisions(null, 12, 10);
        int[] dueIn = {400, 500, 1000, 1100, 1600, 1700};
        List<Long> ids = new ArrayList<>();
        for (int due : dueIn) {
            ids.add(news.article(3, null, due));
        }
        new ForecastDesk(dsl, "sport").article(3, null, 60); // no pace on sport: not forecast, not told
        return List.of(ids.get(1), ids.get(3), ids.get(5));
    }

    @Test
    void anArticleAtRiskIsToldOnceWhileEightClientsSweepAtOnce() throws Exception {
        List<Long> atRisk = aDeskWithThreeAtRisk();
        assertThat(new ReviewSession(db.database(), ReviewSession.Options.defaults()).deadlineForecast()
                .of("news", Duration.ofHours(4)).articles()).filteredOn(DeadlineForecast.DueArticle::atRisk)
                .extracting(DeadlineForecast.DueArticle::id).as("control: the forecast says these three")
                .containsExactlyElementsOf(atRisk);

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
                        // every call finds each desk's minute come, as if each client's tick came at once
                        s.execute("UPDATE deadline_forecast_turn SET due_at = '2000-01-01 00:00:00'");
                        if (viaTurn) {
                            s.execute("UPDATE sweep_turn SET due_at = '2000-01-01 00:00:00' WHERE id = 1");
                            Attacks.runs(s, "CALL take_sweep_turn(5000)");
                        } else {
                            s.execute("CALL report_deadlines_at_risk(2)");
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

        assertThat(told()).as("each article at risk once").containsExactlyInAnyOrderElementsOf(atRisk);
        assertThat(dsl.fetchCount(DEADLINE_EVENT, DEADLINE_EVENT.KIND.eq("deadline_at_risk"))).isEqualTo(3);
        assertThat(dsl.fetchValue(OUTCOME_EVENT.NOTES, OUTCOME_EVENT.ARTICLE_ID.eq(atRisk.get(0))))
                .matches("due \\S+ \\S+ UTC, expected \\S+ \\S+ UTC at the current pace \\(2 in line, not held\\)");

        // moved 10 minutes later, and still at risk: a new deadline, told again; moved well clear: not told
        news.due(atRisk.get(0), 590);
        news.due(atRisk.get(1), 3000);
        sweepNow();
        assertThat(told()).containsExactlyInAnyOrder(atRisk.get(0), atRisk.get(0), atRisk.get(1), atRisk.get(2));
    }

    @Test
    void aDeskIsForecastAtMostOnceAMinuteWhateverTheSweepsInBetween() {
        List<Long> atRisk = aDeskWithThreeAtRisk();
        sweepNow();
        assertThat(told()).containsExactlyInAnyOrderElementsOf(atRisk);
        LocalDateTime next = dsl.fetchValue(DEADLINE_FORECAST_TURN.DUE_AT, DEADLINE_FORECAST_TURN.DESK_ID.eq("news"));
        long another = news.article(3, null, 30); // at risk too, but the desk's minute has not come
        for (int i = 0; i < 5; i++) {
            dsl.update(SWEEP_TURN).set(SWEEP_TURN.DUE_AT, LocalDateTime.of(2000, 1, 1, 0, 0)).execute();
            dsl.fetchMany("CALL take_sweep_turn(5000)");
        }
        assertThat(told()).doesNotContain(another);
        assertThat(dsl.fetchValue(DEADLINE_FORECAST_TURN.DUE_AT, DEADLINE_FORECAST_TURN.DESK_ID.eq("news"))).isEqualTo(next);
        sweepNow();
        assertThat(told()).contains(another);
    }

    private void sweepNow() {
        dsl.update(DEADLINE_FORECAST_TURN).set(DEADLINE_FORECAST_TURN.DUE_AT, LocalDateTime.of(2000, 1, 1, 0, 0)).execute();
        dsl.update(SWEEP_TURN).set(SWEEP_TURN.DUE_AT, LocalDateTime.of(2000, 1, 1, 0, 0)).execute();
        dsl.fetchMany("CALL take_sweep_turn(5000)");
    }

    private List<Long> told() {
        return dsl.select(OUTCOME_EVENT.ARTICLE_ID).from(OUTCOME_EVENT).where(OUTCOME_EVENT.OUTCOME.eq("deadline_at_risk"))
                .orderBy(OUTCOME_EVENT.ID).fetch(OUTCOME_EVENT.ARTICLE_ID);
    }
}
