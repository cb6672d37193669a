package org.copydesk.review;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.copydesk.review.DeadlineForecast.DueArticle;
import org.copydesk.review.DeadlineForecast.Forecast;
import org.copydesk.review.DeadlineForecast.NotForecast;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.TestDatabase;
import org.jooq.DSLContext;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The forecast of a desk's deadlines (docs/deadlines.md, "The forecast") on a desk whose pace is
 * known: decisions seeded at known times before the server's now, people seen at known times,
 * articles due at known times. The expected time of each article is checked to the second, and the
 * set of articles at risk exactly.
 */
@ExtendWith(DatabaseExtension.class)
class DeadlineForecastTest {

    private final DSLContext dsl;
    private final DeadlineForecast forecasts;
    private final ForecastDesk news;

    DeadlineForecastTest(TestDatabase db) {
        this.dsl = db.dsl();
        this.forecasts = new ReviewSession(db.database(), ReviewSession.Options.defaults()).deadlineForecast();
        this.news = new ForecastDesk(dsl, "news");
    }

    @BeforeEach
    void newsroom() {
        Fixtures.emptyNewsroom(dsl);
        Newsroom n = new Newsroom(dsl);
        n.addDesk("news", "News", Duration.ofMinutes(30));
        n.addDesk("sport", "Sport", Duration.ofMinutes(30));
        for (String editor : List.of("ann", "bob", "cat", "dan")) {
            n.addEditor(editor, editor, Role.EDITOR, 5, List.of("news"));
        }
        n.addEditor("sue", "Sue", Role.SUPERVISOR, 5, List.of("news", "sport"));
    }

    /**
     * 12 decisions in the last hour (and 5 older ones, and 9 on another desk, which do not count): 12
     * an hour, 300 s an article. One article held (and late); a priority-1 article without a due time
     * ahead of everything else; then six due at the same priority, in due order, the 2nd, 4th and 6th
     * a little too soon for their place in line.
     */
    @Test
    void eachArticleIsExpectedItsPlaceInLineTimesTheDesksPaceAndThoseAfterTheirDueTimeAreAtRisk() {
        news.decisions(null, 12, 5);
        news.decisions(null, 5, 61);
        new ForecastDesk(dsl, "sport").decisions(null, 9, 5);
        news.seen("ann", 10);
        news.seen("bob", 100);
        news.seen("cat", 170);
        news.seen("dan", 400); // idle: not counted
        news.seen("sue", null);

        long held = news.article(3, null, -60);
        news.held(held, "ann");
        news.article(1, null, null);
        int[] dueIn = {1000, 1150, 1600, 1750, 2200, 2300};
        long[] waiting = new long[dueIn.length];
        for (int i = 0; i < dueIn.length; i++) {
            waiting[i] = news.article(3, null, dueIn[i]);
        }
        long onHold = news.article(3, null, 3000);
        news.onHold(onHold);
        long withWriter = news.article(3, null, 1800);
        news.withWriter(withWriter);
        news.article(3, null, 5 * 3600); // beyond the 4 hours: not listed
        new ForecastDesk(dsl, "sport").article(3, null, 600); // another desk

        Forecast f = forecasts.of("news", Duration.ofHours(4));

        assertThat(f.perHour()).isEqualTo(12);
        assertThat(f.people()).as("ann, bob, cat: heard from in the last 3 minutes").isEqualTo(3);
        assertThat(f.stages()).singleElement().satisfies(s -> {
            assertThat(s.stage()).isNull();
            assertThat(s.perHour()).isEqualTo(12);
            assertThat(s.held()).isEqualTo(1);
        });
        Map<Long, DueArticle> byId = f.articles().stream().collect(Collectors.toMap(DueArticle::id, Function.identity()));
        assertThat(byId.keySet()).containsExactlyInAnyOrder(held, waiting[0], waiting[1], waiting[2], waiting[3], waiting[4],
                waiting[5], onHold, withWriter);
        assertThat(f.articles()).extracting(DueArticle::id).as("earliest due first").startsWith(held, waiting[0], waiting[1]);

        DueArticle h = byId.get(held);
        assertThat(h.late()).isTrue();
        assertThat(h.atRisk()).isFalse();
        assertThat(h.position()).isEqualTo(1);
        assertThat(h.heldBy()).isEqualTo("ann");
        assertThat(Duration.between(f.serverNow(), h.expectedAt())).isEqualTo(Duration.ofSeconds(300));
        for (int i = 0; i < waiting.length; i++) {
            DueArticle a = byId.get(waiting[i]);
            // behind the held one and the priority-1 one, and the waiting ones due before it
            assertThat(a.position()).as("position of the %dth due", i + 1).isEqualTo(i + 3);
            assertThat(Duration.between(f.serverNow(), a.expectedAt())).as("expected of the %dth due", i + 1)
                    .isEqualTo(Duration.ofSeconds(300L * (i + 3)));
        }
        assertThat(f.articles()).filteredOn(DueArticle::atRisk).extracting(DueArticle::id)
                .containsExactly(waiting[1], waiting[3], waiting[5]);
        assertThat(byId.get(onHold).notForecast()).isEqualTo(NotForecast.ON_HOLD);
        assertThat(byId.get(withWriter).notForecast()).isEqualTo(NotForecast.WITH_WRITER);
        assertThat(byId.get(withWriter).expectedAt()).isNull();
        assertThat(f.due()).isEqualTo(8);
        assertThat(f.atRisk()).isEqualTo(3);
        assertThat(f.late()).isEqualTo(1);
        assertThat(f.notForecast()).isEqualTo(2);
    }

    /**
     * Copy edit at 12 an hour, Sign-off at 6: an article waiting at Copy edit goes through both, behind
     * what waits at each before it in claim order, and never leaves Sign-off sooner than 600 s after
     * Copy edit. Legal (only when asked, no pace) is not in the way of articles that were not sent there.
     */
    @Test
    void anArticleGoesThroughEveryLaterStageAtThatStagesPace() {
        news.stage("copy", 1, true);
        news.stage("legal", 2, false);
        news.stage("signoff", 3, true);
        news.decisions("copy", 12, 30);
        news.decisions("signoff", 6, 30);
        long atSignoff = news.article(3, "signoff", 700);
        long first = news.article(3, "copy", 1100);
        long second = news.article(3, "copy", 2000);
        long atLegal = news.article(3, "legal", 2100);

        Forecast f = forecasts.of("news", Duration.ofHours(4));

        assertThat(f.stages()).extracting(DeadlineForecast.StagePace::stage).containsExactly("copy", "legal", "signoff");
        assertThat(f.perHour()).as("the slowest stage every article goes through").isEqualTo(6);
        Map<Long, DueArticle> byId = f.articles().stream().collect(Collectors.toMap(DueArticle::id, Function.identity()));
        assertThat(Duration.between(f.serverNow(), byId.get(atSignoff).expectedAt())).isEqualTo(Duration.ofSeconds(600));
        // Copy edit at 300 s, then behind the one at Sign-off: 2 x 600 s
        assertThat(Duration.between(f.serverNow(), byId.get(first).expectedAt())).isEqualTo(Duration.ofSeconds(1200));
        // Copy edit 2nd (600 s), then behind the two before it at Sign-off: 3 x 600 s
        assertThat(Duration.between(f.serverNow(), byId.get(second).expectedAt())).isEqualTo(Duration.ofSeconds(1800));
        assertThat(byId.get(second).position()).isEqualTo(2);
        assertThat(byId.get(atLegal).notForecast()).as("Legal decided nothing in the last hour").isEqualTo(NotForecast.NO_PACE);
        assertThat(f.articles()).filteredOn(DueArticle::atRisk).extracting(DueArticle::id).containsExactly(first);
    }

    @Test
    void aDeskThatDecidedNothingInTheLastHourHasNoPaceAndNothingIsForecast() {
        news.decisions(null, 4, 90);
        long due = news.article(3, null, 600);

        Forecast f = forecasts.of("news", Duration.ofHours(4));

        assertThat(f.perHour()).isNull();
        assertThat(f.articles()).singleElement().satisfies(a -> {
            assertThat(a.id()).isEqualTo(due);
            assertThat(a.expectedAt()).isNull();
            assertThat(a.atRisk()).isFalse();
            assertThat(a.notForecast()).isEqualTo(NotForecast.NO_PACE);
        });
        assertThat(f.notForecast()).isEqualTo(1);
    }
}
