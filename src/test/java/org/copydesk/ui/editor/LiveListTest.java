package org.copydesk.ui.editor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.DESK;

import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import org.copydesk.lease.ServerClock;
import org.copydesk.review.Editor;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.Role;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.ManualTicker;
import org.copydesk.testing.TestDatabase;
import org.copydesk.ui.common.Notice;
import org.copydesk.ui.common.TaskExecutor;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Work comes to the editor and the list never goes stale: without F5, within 5 s of the
 * change on the server (the heartbeat is a minute away in each case); within the quiet interval for
 * a window holding nothing that nobody has touched for a minute.
 */
@ExtendWith(DatabaseExtension.class)
class LiveListTest {

    private static final Duration WITHIN_FIVE_SECONDS = Duration.ofSeconds(4);

    private final DSLContext dsl;
    private final ReviewSession session;
    private final ManualTicker ticker = new ManualTicker();
    private final List<String> alerts = new ArrayList<>();
    private EditorViewModel model;

    LiveListTest(TestDatabase db) {
        this.dsl = db.dsl();
        this.session = new ReviewSession(db.database(), ReviewSession.Options.defaults());
    }

    @BeforeEach
    void newsroom() {
        Editor ann = EditorNewsroom.ann(session, dsl, 3, List.of("news", "sport"));
        session.newsroom().addEditor("bob", "Bob Marsh", Role.EDITOR, 3, List.of("news", "sport"));
        model = new EditorViewModel(session, TaskExecutor.sameThread(), ticker, ann, List.of("news", "sport"),
                EditorViewModel.Settings.defaults(), ZoneId.of("UTC"));
        model.onAttention(alerts::add);
    }

    @AfterEach
    void close() {
        model.close();
    }

    @Test
    void anArticleTakenBackLeavesTheListWithTheReasonAndAnAlert() {
        Fixtures.articles(dsl, "news", 2, 3, -60);
        model.start();
        LeaseRow row = model.articles().get(0);

        session.supervision().forceRelease(row.id(), "sue", "Legal first");
        ticker.advance(WITHIN_FIVE_SECONDS);

        assertThat(model.articles()).extracting(LeaseRow::id).doesNotContain(row.id());
        String said = "Sue Lindqvist took \u201cArticle 0\u201d back: \u201cLegal first\u201d. Your notes go with it to whoever reviews it next.";
        assertThat(model.notices()).extracting(Notice::text).contains(said);
        assertThat(alerts).containsExactly(said);
    }

    @Test
    void anArticleGivenToSomeoneElseLeavesTheList() {
        Fixtures.articles(dsl, "news", 1, 3, -60);
        model.start();
        long id = model.articles().get(0).id();

        session.supervision().reassign(id, "bob", "sue", false, "Bob covers this");
        ticker.advance(WITHIN_FIVE_SECONDS);

        assertThat(model.articles()).isEmpty();
        assertThat(model.notices()).extracting(Notice::text)
                .contains("Sue Lindqvist gave \u201cArticle 0\u201d to Bob Marsh: \u201cBob covers this\u201d. Your notes went with it.");
    }

    @Test
    void aSupervisorsExtraTimeShowsInTheCountdown() {
        Fixtures.articles(dsl, "news", 1, 3, -60);
        model.start();
        LeaseRow row = model.articles().get(0);
        assertThat(row.remainingProperty().get()).isLessThanOrEqualTo(Duration.ofMinutes(30));

        session.supervision().extend(row.id(), Duration.ofMinutes(20), "sue");
        ticker.advance(WITHIN_FIVE_SECONDS);

        assertThat(row.remainingProperty().get()).isGreaterThan(Duration.ofMinutes(45));
    }

    @Test
    void workArrivingOnTheEditorsDesksIsAnnouncedWhileTheyHaveRoom() {
        Fixtures.articles(dsl, "news", 1, 3, -60);
        model.start();
        assertThat(model.articles()).hasSize(1);
        ticker.advance(WITHIN_FIVE_SECONDS);
        assertThat(model.waitingProperty().get()).isEmpty();

        Fixtures.articles(dsl, "news", 2, 3, -60); // an import
        Fixtures.articles(dsl, "sport", 1, 3, -60);
        ticker.advance(WITHIN_FIVE_SECONDS);

        assertThat(model.waitingProperty().get()).isEqualTo("3 articles waiting on News and Sport \u2014 F5");
        assertThat(model.articles()).hasSize(1); // announced, not taken: the editor chose no top-up

        model.reload();
        assertThat(model.articles()).hasSize(3);
        ticker.advance(WITHIN_FIVE_SECONDS);
        assertThat(model.waitingProperty().get()).as("at capacity, nothing is announced").isEmpty();
    }

    /**
     * Away from a window that holds nothing (no key or mouse for the idle timeout, 10 minutes) the
     * list is asked every {@link EditorViewModel.Settings#AWAY_WATCH_INTERVAL}, not every few seconds; back at work, at once.
     */
    @Test
    void theListIsAskedLessOftenWhileTheEditorIsAwayAndAtOnceOnTheirReturn() {
        model.start();
        assertThat(model.articles()).isEmpty();
        ticker.advance(Duration.ofMinutes(11)); // away since the start; the last read was at 11:00

        Fixtures.articles(dsl, "news", 2, 3, -60);
        ticker.advance(WITHIN_FIVE_SECONDS);
        assertThat(model.waitingProperty().get()).as("not asked again within seconds while away").isEmpty();
        ticker.advance(EditorViewModel.Settings.AWAY_WATCH_INTERVAL);
        assertThat(model.waitingProperty().get()).isEqualTo("2 articles waiting on News \u2014 F5");

        Fixtures.articles(dsl, "sport", 1, 3, -60);
        model.activity();
        ticker.advance(WITHIN_FIVE_SECONDS);
        assertThat(model.waitingProperty().get()).isEqualTo("3 articles waiting on News and Sport \u2014 F5");
    }

    /**
     * A window holding nothing that nobody has touched for {@link EditorViewModel.Settings#QUIET_AFTER} asks every
     * {@link EditorViewModel.Settings#QUIET_WATCH_INTERVAL}: an article a supervisor gives the editor then arrives within
     * that, with who gave it and why, not within the working interval.
     */
    @Test
    void anArticleGivenToAnUntouchedWindowHoldingNothingArrivesWithinTheQuietInterval() {
        Fixtures.articles(dsl, "news", 1, 3, -60);
        session.queue().claim("bob");
        long bobs = dsl.fetchValue(ARTICLE.ID, ARTICLE.LOCKED_BY.eq("bob"));
        model.start();
        assertThat(model.articles()).isEmpty();
        ticker.advance(EditorViewModel.Settings.QUIET_AFTER.plusSeconds(1));
        Fixtures.articles(dsl, "sport", 1, 3, -60);
        secondsUntilTheNudgeSays("1 article waiting on Sport \u2014 F5", EditorViewModel.Settings.QUIET_WATCH_INTERVAL); // a read just now

        session.supervision().reassign(bobs, "ann", "sue", false, "Ann knows this story");
        ticker.advance(WITHIN_FIVE_SECONDS);
        assertThat(model.articles()).as("not asked again within the working interval").isEmpty();
        ticker.advance(EditorViewModel.Settings.QUIET_WATCH_INTERVAL.minus(WITHIN_FIVE_SECONDS).plusSeconds(1));

        assertThat(model.articles()).extracting(LeaseRow::id).containsExactly(bobs);
        String said = "Sue Lindqvist gave you \u201cArticle 0\u201d: \u201cAnn knows this story\u201d.";
        assertThat(model.notices()).extracting(Notice::text).contains(said);
        assertThat(alerts).contains(said);
    }

    /** Holding leases, the window asks every working interval however long nobody has touched it, past the idle timeout too. */
    @Test
    void aWindowHoldingLeasesAsksEveryWorkingIntervalHoweverLongItIsUntouched() {
        Fixtures.articles(dsl, "news", 2, 3, -60);
        model.start();
        assertThat(model.articles()).hasSize(2);

        ticker.advance(EditorViewModel.Settings.QUIET_AFTER.multipliedBy(2)); // untouched, still at the window
        LeaseRow first = model.articles().get(0);
        session.supervision().forceRelease(first.id(), "sue", "Legal first");
        ticker.advance(WITHIN_FIVE_SECONDS);
        assertThat(model.articles()).extracting(LeaseRow::id).doesNotContain(first.id());

        ticker.advance(Duration.ofMinutes(10)); // away: no key or click for the idle timeout
        LeaseRow second = model.articles().get(0);
        session.supervision().extend(second.id(), Duration.ofMinutes(20), "sue");
        ticker.advance(WITHIN_FIVE_SECONDS);
        assertThat(second.remainingProperty().get()).isGreaterThan(Duration.ofMinutes(45));
    }

    /** A key or a click in a window that was asking less often asks at once, not when the working interval has passed. */
    @Test
    void backAtTheKeyboardAQuietWindowAsksAtOnce() {
        model.start();
        ticker.advance(EditorViewModel.Settings.QUIET_AFTER.plusSeconds(1));
        Fixtures.articles(dsl, "news", 1, 3, -60);
        secondsUntilTheNudgeSays("1 article waiting on News \u2014 F5", EditorViewModel.Settings.QUIET_WATCH_INTERVAL); // a read just now

        Fixtures.articles(dsl, "news", 1, 3, -60);
        ticker.advance(Duration.ofSeconds(1));
        assertThat(model.waitingProperty().get()).as("quiet: not asked a second after a read")
                .isEqualTo("1 article waiting on News \u2014 F5");
        model.activity();
        ticker.advance(Duration.ofSeconds(1)); // the next tick, 2 s after the last read

        assertThat(model.waitingProperty().get()).isEqualTo("2 articles waiting on News \u2014 F5");
        ticker.advance(EditorViewModel.Settings.QUIET_AFTER.minusSeconds(10));
        Fixtures.articles(dsl, "news", 1, 3, -60);
        ticker.advance(WITHIN_FIVE_SECONDS);
        assertThat(model.waitingProperty().get()).as("back at the working interval").isEqualTo("3 articles waiting on News \u2014 F5");
    }

    /** Steps a second at a time until the nudge says {@code text}; fails after {@code atMost}. */
    private void secondsUntilTheNudgeSays(String text, Duration atMost) {
        for (long s = 0; s <= atMost.toSeconds() + 1; s++) {
            if (model.waitingProperty().get().equals(text)) {
                return;
            }
            ticker.advance(Duration.ofSeconds(1));
        }
        assertThat(model.waitingProperty().get()).as("within %s", atMost).isEqualTo(text);
    }

    @Test
    void anEmbargoLiftingAndAnotherEditorsLapsedLeaseCountAsWaitingWork() {
        List<Long> embargoed = Fixtures.articles(dsl, "news", 1, 3, 3600);
        model.start();
        assertThat(model.articles()).isEmpty();

        dsl.update(ARTICLE).set(ARTICLE.AVAILABLE_AT, ServerClock.nowPlus(Duration.ofSeconds(-1)))
                .where(ARTICLE.ID.in(embargoed)).execute(); // the embargo lifts
        ticker.advance(WITHIN_FIVE_SECONDS);
        assertThat(model.waitingProperty().get()).isEqualTo("1 article waiting on News \u2014 F5");
        assertThat(model.emptyTextProperty().get()).as("no longer 'nothing on News'").isEqualTo("Work is waiting: press Get articles (F5).");

        session.queue().claim("bob");
        ticker.advance(WITHIN_FIVE_SECONDS);
        assertThat(model.waitingProperty().get()).isEmpty();

        dsl.update(ARTICLE).set(ARTICLE.EXPIRES_AT, ServerClock.nowPlus(Duration.ofSeconds(-1)))
                .where(ARTICLE.LOCKED_BY.eq("bob")).execute(); // bob's lease runs out
        ticker.advance(WITHIN_FIVE_SECONDS);
        assertThat(model.waitingProperty().get()).isEqualTo("1 article waiting on News \u2014 F5");
    }

    @Test
    void withTopUpChosenTheListFillsItselfOnce() {
        Fixtures.articles(dsl, "news", 1, 3, -60);
        model.autoTopUpProperty().set(true);
        model.start();
        assertThat(model.articles()).hasSize(1);

        Fixtures.articles(dsl, "news", 5, 3, -60);
        ticker.advance(WITHIN_FIVE_SECONDS);

        assertThat(model.articles()).hasSize(3);
        assertThat(model.waitingProperty().get()).isEmpty();
    }

    @Test
    void aWindowStartedWithoutClaimingTakesNothingUntilGetArticlesEvenWithTopUpChosen() {
        Fixtures.articles(dsl, "news", 2, 3, -60);
        model.autoTopUpProperty().set(true);
        model.startWithoutClaiming(); // a supervisor's own window, behind the dashboard

        Fixtures.articles(dsl, "news", 2, 3, -60);
        ticker.advance(WITHIN_FIVE_SECONDS);
        assertThat(model.articles()).isEmpty();
        assertThat(model.waitingProperty().get()).isEqualTo("4 articles waiting on News \u2014 F5");
        assertThat(dsl.fetchCount(ARTICLE, ARTICLE.LOCKED_BY.isNotNull())).isZero();

        model.reload(); // she chooses to review
        assertThat(model.articles()).hasSize(3);
        Fixtures.articles(dsl, "news", 1, 3, -60);
        model.releaseSelected();
        ticker.advance(WITHIN_FIVE_SECONDS);
        assertThat(model.articles()).as("from now on the list tops itself up").hasSize(3);
    }

    @Test
    void anArticleTheEditorGaveBackIsNotAnnouncedToThem() {
        Fixtures.articles(dsl, "news", 1, 3, -60);
        model.start();
        model.releaseSelected();
        assertThat(model.articles()).isEmpty();

        ticker.advance(WITHIN_FIVE_SECONDS);

        assertThat(model.waitingProperty().get()).isEmpty();
    }

    @Test
    void aLeaseAboutToRunOutRaisesAnAlert() {
        Fixtures.articles(dsl, "news", 1, 3, -60);
        dsl.update(DESK).set(DESK.LEASE_SECONDS, 150).execute();
        model.start();

        ticker.advance(Duration.ofSeconds(35));

        assertThat(alerts).singleElement().asString().contains("goes back to the queue in");
    }
}
