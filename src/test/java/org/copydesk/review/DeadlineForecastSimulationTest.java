package org.copydesk.review;

import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.db.schema.Tables.DEADLINE_FORECAST_TURN;
import static org.copydesk.db.schema.Tables.OUTCOME_EVENT;
import static org.copydesk.db.schema.Tables.SWEEP_TURN;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.copydesk.lease.ClaimStrategyKind;
import org.copydesk.review.DeadlineForecast.DueArticle;
import org.copydesk.review.DeadlineForecast.Forecast;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.TestDatabase;
import org.jooq.DSLContext;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The forecast against what then happens (docs/deadlines.md, "How the forecast was checked"): a desk
 * whose pace is known from its seeded history of decisions works at exactly that pace, in real
 * time, through the real claims and decisions ({@link SimulatedDesk}). The forecast taken at the
 * start must count the misses to within one article of the articles then decided after their due
 * time, and the sweep must have put the first miss's warning on the supervisor's dashboard before
 * its due time. The server's clock cannot be moved, so an hour's pace is compressed into seconds
 * (thousands of decisions an hour), and due times fall half an article's time between two expected
 * decisions, so that the machine's latency (tens of milliseconds) decides nothing.
 */
@ExtendWith(DatabaseExtension.class)
class DeadlineForecastSimulationTest {

    private static final Logger log = LoggerFactory.getLogger(DeadlineForecastSimulationTest.class);
    /** Time for the setup's last statements between the due times being set and the start. */
    private static final Duration LEAD = Duration.ofMillis(2500);
    private static final Duration LIMIT = Duration.ofSeconds(40);

    private final DSLContext dsl;
    private final ReviewSession session;
    private final ReviewProcedures procedures;
    private final ForecastDesk news;

    DeadlineForecastSimulationTest(TestDatabase db) {
        this.dsl = db.dsl();
        this.session = new ReviewSession(db.database(), ReviewSession.Options.defaults());
        this.procedures = new ReviewProcedures(DatabaseOperations.withDefaultRetries(dsl), ClaimStrategyKind.SKIP_LOCKED);
        this.news = new ForecastDesk(dsl, "news");
    }

    @BeforeEach
    void newsroom() {
        dsl.deleteFrom(OUTCOME_EVENT).execute();
        dsl.deleteFrom(DEADLINE_FORECAST_TURN).execute();
        Fixtures.emptyNewsroom(dsl);
        Newsroom n = new Newsroom(dsl);
        n.addDesk("news", "News", Duration.ofMinutes(30));
        n.addEditor("ann", "Ann", Role.EDITOR, 5, List.of("news"));
        n.addEditor("bob", "Bob", Role.EDITOR, 5, List.of("news"));
        n.addEditor("sue", "Sue", Role.SUPERVISOR, 5, List.of("news"));
        // the first sweep tick takes the turn (and forecasts the desk, whose first forecast it is)
        dsl.update(SWEEP_TURN).set(SWEEP_TURN.DUE_AT, LocalDateTime.of(2000, 1, 1, 0, 0)).execute();
    }

    /**
     * 3,000 decisions in the last hour: 1.2 s an article. Ann and Bob each take 2.4 s an article, Ann
     * half-way through hers at the start: together one every 1.2 s, the pace the forecast measures.
     * They hold two priority-2 articles; ten wait, due for three editions (4, 3 and 3 articles) 5.5,
     * 8.5 and 10.5 articles' time after the start: the last of the first, the last of the second and
     * the last two of the third come half an article's time (0.6 s) or more too late.
     */
    @Test
    void aDeskWithoutStagesMissesWhatTheForecastSaidToWithinOneArticle() throws Exception {
        Duration step = Duration.ofMillis(1200);
        news.decisions(null, 3000, 30);
        news.article(2, null, null);
        news.article(2, null, null);
        List<Long> waiting = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            waiting.add(news.article(3, null, null));
        }
        HeldArticle ann = claimOne("ann");
        HeldArticle bob = claimOne("bob");
        Instant start = news.serverNow().plus(LEAD);
        double[] editions = {5.5, 5.5, 5.5, 5.5, 8.5, 8.5, 8.5, 10.5, 10.5, 10.5};
        for (int i = 0; i < waiting.size(); i++) {
            due(waiting.get(i), start, step, editions[i]);
        }

        Result r = run(start, List.of(new SimulatedDesk.Editor("ann", ann, step, step.multipliedBy(2)),
                new SimulatedDesk.Editor("bob", bob, step.multipliedBy(2), step.multipliedBy(2))), "one stage, 3,000 an hour");

        assertThat(r.forecast.perHour()).as("the pace from the seeded hour").isEqualTo(3000);
        assertThat(r.forecast.due()).isEqualTo(10);
        assertThat(r.atRisk()).as("the forecast: the last of each edition and two of the third")
                .containsExactlyInAnyOrder(waiting.get(3), waiting.get(6), waiting.get(8), waiting.get(9));
        r.assertForecastWithinOneAndWarnedBeforeTheFirstMiss();
    }

    /**
     * Copy edit at 4,800 an hour (0.75 s an article, Ann) and Sign-off at 2,400 (1.5 s, Bob, the
     * slower): every article goes through both, and waits at Sign-off behind what is there and what
     * comes before it from Copy edit. Bob holds one at Sign-off, Ann the first of eight at Copy edit:
     * they leave Sign-off 2, 3, 4 … 9 Sign-off articles' time (1.5 s) from the start. Due 4.5 (four)
     * and 7.5 (four) of those: the 4th, 7th and 8th miss.
     */
    @Test
    void aDeskWithTwoStagesAtDifferentPacesMissesWhatTheForecastSaidToWithinOneArticle() throws Exception {
        Duration copyStep = Duration.ofMillis(750);
        Duration signoffStep = Duration.ofMillis(1500);
        ReviewStages stages = ReviewStages.over(dsl);
        stages.set(null, new ReviewStages.Settings("news", "copy", "Copy edit", null, null, false, false, true));
        stages.set(null, new ReviewStages.Settings("news", "signoff", "Sign-off", null, null, false, false, true));
        stages.setTakers(null, "news", "copy", List.of("ann"));
        stages.setTakers(null, "news", "signoff", List.of("bob"));
        news.decisions("copy", 4800, 30);
        news.decisions("signoff", 2400, 30);
        news.article(3, "signoff", null);
        List<Long> waiting = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            waiting.add(news.article(3, "copy", null));
        }
        HeldArticle ann = claimOne("ann");
        HeldArticle bob = claimOne("bob");
        assertThat(ann.id()).isEqualTo(waiting.get(0));
        Instant start = news.serverNow().plus(LEAD);
        for (int i = 0; i < waiting.size(); i++) {
            due(waiting.get(i), start, signoffStep, i < 4 ? 4.5 : 7.5);
        }

        Result r = run(start, List.of(new SimulatedDesk.Editor("ann", ann, copyStep, copyStep),
                new SimulatedDesk.Editor("bob", bob, signoffStep, signoffStep)), "copy 4,800 and sign-off 2,400 an hour");

        assertThat(r.forecast.stages()).extracting(DeadlineForecast.StagePace::perHour).containsExactly(4800, 2400);
        assertThat(r.atRisk()).as("the forecast").containsExactlyInAnyOrder(waiting.get(3), waiting.get(6), waiting.get(7));
        r.assertForecastWithinOneAndWarnedBeforeTheFirstMiss();
    }

    private HeldArticle claimOne(String editor) {
        return procedures.claim(editor, List.of("news"), 1, null).held().get(0);
    }

    /** Due {@code steps} articles' time after {@code start}, set by the supervisor as in the newsroom. */
    private void due(long article, Instant start, Duration step, double steps) {
        DueTimes.over(dsl).set("sue", article, start.plusMillis(Math.round(step.toMillis() * steps)), "the edition");
    }

    private Result run(Instant start, List<SimulatedDesk.Editor> editors, String scenario) throws Exception {
        SimulatedDesk desk = new SimulatedDesk(dsl, procedures, session.deadlineForecast(), "news");
        desk.sleepUntilTheServerReads(start);
        Forecast forecast = session.deadlineForecast().of("news", DeadlineForecast.DEFAULT_WITHIN);
        // under half an article's time after the start, so the forecast's at-risk set is the one the due times were set for
        assertThat(Duration.between(start, forecast.serverNow())).as("the forecast at the start (the setup took longer than %s?)",
                LEAD).isBetween(Duration.ZERO, Duration.ofMillis(400));
        long began = System.nanoTime();
        SimulatedDesk.Outcome outcome = desk.run(start, editors, LIMIT);
        Duration took = Duration.ofNanos(System.nanoTime() - began);
        assertThat(outcome.faults()).isEmpty();
        List<DueArticle> due = forecast.articles().stream().filter(a -> !a.late()).toList();
        Result r = new Result(forecast, SimulatedDesk.missed(due, outcome.decidedAt()), outcome.warnedAt(), due);
        StringBuilder table = new StringBuilder(String.format(java.util.Locale.ROOT,
                "%s: forecast %d at risk of %d due, %d missed; the desk worked %d ms%n  article | due s | expected s | decided s |"
                        + " at risk | missed | warned s%n", scenario, forecast.atRisk(), forecast.due(), r.missed.size(),
                took.toMillis()));
        for (DueArticle a : due) {
            table.append(String.format("  %d | %s | %s | %s | %s | %s | %s%n", a.id(), SimulatedDesk.after(start, a.dueAt()),
                    SimulatedDesk.after(start, a.expectedAt()), SimulatedDesk.after(start, outcome.decidedAt().get(a.id())), a.atRisk(),
                    r.missed.contains(a.id()), SimulatedDesk.after(start, outcome.warnedAt().get(a.id()))));
        }
        log.info("{}", table);
        return r;
    }

    /** The forecast at the start, the articles then decided after their due time, and when each warning reached the dashboard. */
    private record Result(Forecast forecast, List<Long> missed, Map<Long, Instant> warnedAt, List<DueArticle> due) {

        List<Long> atRisk() {
            return due.stream().filter(DueArticle::atRisk).map(DueArticle::id).toList();
        }

        /**
         * The count within one, and the articles too: at most one forecast at risk and kept its
         * deadline, or missed and was not forecast (a stall of the machine longer than half an
         * article's time moves one decision past its due time, not the ones after it).
         */
        void assertForecastWithinOneAndWarnedBeforeTheFirstMiss() {
            assertThat(Math.abs(forecast.atRisk() - missed.size())).as("forecast %d at risk, %d missed", forecast.atRisk(),
                    missed.size()).isLessThanOrEqualTo(1);
            java.util.Set<Long> eitherNotBoth = new java.util.HashSet<>(atRisk());
            eitherNotBoth.addAll(missed);
            eitherNotBoth.removeIf(id -> atRisk().contains(id) && missed.contains(id));
            assertThat(eitherNotBoth).as("forecast at risk %s, missed %s", atRisk(), missed).hasSizeLessThanOrEqualTo(1);
            Map<Long, DueArticle> byId = due.stream().collect(Collectors.toMap(DueArticle::id, Function.identity()));
            DueArticle first = missed.stream().map(byId::get).min(Comparator.comparing(DueArticle::dueAt)
                    .thenComparing(DueArticle::id)).orElseThrow();
            assertThat(warnedAt).as("the first miss's warning on the dashboard").containsKey(first.id());
            assertThat(warnedAt.get(first.id())).as("the first miss's warning, before its due time").isBefore(first.dueAt());
        }
    }
}
