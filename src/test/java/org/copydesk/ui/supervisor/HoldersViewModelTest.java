package org.copydesk.ui.supervisor;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import org.copydesk.review.Editor;
import org.copydesk.review.HeldArticle;
import org.copydesk.review.ReviewSession;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.ManualTicker;
import org.copydesk.testing.TestDatabase;
import org.copydesk.ui.common.TaskExecutor;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The dashboard does not move rows under the supervisor's hand. The holders tab's view model with a
 * same-thread executor, a manual clock and the real database.
 */
@ExtendWith(DatabaseExtension.class)
class HoldersViewModelTest {

    private final DSLContext dsl;
    private final ReviewSession services;
    private final ManualTicker ticker = new ManualTicker();
    private Editor sue;
    private DashboardViewModel dashboard;
    private HoldersViewModel model;

    HoldersViewModelTest(TestDatabase db) {
        this.dsl = db.dsl();
        this.services = new ReviewSession(db.database(), ReviewSession.Options.defaults());
    }

    @BeforeEach
    void newsroom() {
        sue = NewsroomCast.on(services, dsl).desks("news").ann("news").dan("news").sue("news");
        Fixtures.articles(dsl, "news", 6, 3, -60);
        services.queue().claim("ann");
        start(DashboardViewModel.Settings.defaults());
    }

    private void start(DashboardViewModel.Settings settings) {
        if (dashboard != null) {
            dashboard.close();
        }
        dashboard = new DashboardViewModel(services, TaskExecutor.sameThread(), ticker, sue, settings, ZoneId.of("UTC"));
        model = dashboard.holders();
        dashboard.start();
    }

    @AfterEach
    void close() {
        dashboard.close();
    }

    private List<String> titles() {
        return model.rows().stream().map(HolderRow::title).toList();
    }

    private HeldArticle annHolds(String title) {
        return services.queue().held("ann").stream().filter(h -> h.title().equals(title)).findFirst().orElseThrow();
    }

    @Test
    void byDefaultRenewalsMoveNoRow() {
        assertThat(titles()).containsExactly("Article 0", "Article 1", "Article 2");
        services.queue().renew("ann", List.of(annHolds("Article 0")));
        ticker.advance(Duration.ofSeconds(2));
        services.queue().renew("ann", List.of(annHolds("Article 1")));
        ticker.advance(Duration.ofSeconds(2));

        assertThat(titles()).containsExactly("Article 0", "Article 1", "Article 2");
        assertThat(model.rows()).extracting(HolderRow::renewals).containsExactly(1, 1, 0);
    }

    @Test
    void aSelectionStaysOnItsLeaseNotOnItsRowWhenTheRowsMove() {
        model.sortBy(HolderSort.TIME_LEFT, true); // chosen: now a renewal moves its row
        assertThat(titles()).containsExactly("Article 0", "Article 1", "Article 2");
        model.selectedProperty().set(model.rows().get(0));

        services.queue().renew("ann", List.of(annHolds("Article 0"))); // runs out last now: moves to the bottom
        ticker.advance(Duration.ofSeconds(2));

        assertThat(titles()).containsExactly("Article 1", "Article 2", "Article 0");
        assertThat(model.selectedProperty().get().title()).isEqualTo("Article 0");
        assertThat(model.selectedProperty().get().renewals()).as("the lease's current row").isEqualTo(1);
        assertThat(model.selection()).extracting(HolderRow::title).containsExactly("Article 0");
    }

    @Test
    void whileThePointerIsOverTheRowsUpdatesChangeRowsInPlaceAndSayWhatWaits() {
        model.pointerOverProperty().set(true);
        HolderRow article1 = model.rows().get(1);

        services.queue().renew("ann", List.of(annHolds("Article 0"))); // runs out later now
        services.queue().renew("ann", List.of(annHolds("Article 1"))); // renewed too
        services.queue().claim("dan"); // Article 3 would come
        services.queue().release(annHolds("Article 2")); // would leave
        ticker.advance(Duration.ofSeconds(2));

        assertThat(titles()).as("no row moves, comes or goes under the pointer").containsExactly("Article 0", "Article 1", "Article 2");
        assertThat(model.rows().get(1)).as("changed in place").isNotSameAs(article1);
        assertThat(model.rows().get(1).renewals()).isEqualTo(1);
        assertThat(model.heldTextProperty().get()).isEqualTo("2 changes wait while you work here: 1 new, 1 ended.");
        assertThat(model.summaryProperty().get()).as("the count is of the leases now, not of the rows still shown")
                .startsWith("3 active leases");

        model.pointerOverProperty().set(false);

        assertThat(titles()).containsExactly("Article 0", "Article 1", "Article 3");
        assertThat(model.heldTextProperty().get()).isEmpty();
    }

    @Test
    void heldChangesAreShownOnRequest() {
        model.pointerOverProperty().set(true);
        services.queue().claim("dan");
        ticker.advance(Duration.ofSeconds(2));
        assertThat(model.rows()).hasSize(3);
        assertThat(model.heldTextProperty().get()).isEqualTo("1 change waits while you work here: 1 new.");

        model.showHeldChanges();

        assertThat(model.rows()).hasSize(4);
        assertThat(model.heldTextProperty().get()).isEmpty();
    }

    @Test
    void theKeyboardOnASelectionHoldsTheRowsTooButTheKeyboardAloneDoesNot() {
        model.keyboardOnRowsProperty().set(true);
        services.queue().claim("dan");
        ticker.advance(Duration.ofSeconds(2));
        assertThat(model.rows()).as("the keyboard without a selection: live").hasSize(4);

        model.selectedProperty().set(model.rows().get(2));
        services.queue().release(annHolds("Article 0"));
        ticker.advance(Duration.ofSeconds(2));
        assertThat(model.rows()).hasSize(4);
        assertThat(model.heldTextProperty().get()).startsWith("1 change waits");

        model.keyboardOnRowsProperty().set(false);
        assertThat(model.rows()).hasSize(3);
        assertThat(model.selectedProperty().get()).isNotNull();
    }

    @Test
    void aRowThatRunsOutUnderThePointerStaysUntilThePointerLeaves() {
        dsl.update(org.copydesk.db.schema.Tables.ARTICLE).set(org.copydesk.db.schema.Tables.ARTICLE.EXPIRES_AT,
                org.copydesk.lease.ServerClock.nowPlus(Duration.ofSeconds(20)))
                .where(org.copydesk.db.schema.Tables.ARTICLE.TITLE.eq("Article 0")).execute();
        // the manual clock runs ahead of the server's: without looking back over old events only the
        // local countdown decides, as in the app (see DashboardViewModelTest)
        DashboardViewModel.Settings d = DashboardViewModel.Settings.defaults();
        start(new DashboardViewModel.Settings(d.tick(), d.refreshInterval(), d.fullReloadInterval(), d.statsInterval(),
                d.idleAfter(), d.offlineAfter(), 0, d.noticeLifetime()));
        model.pointerOverProperty().set(true);
        model.selectedProperty().set(model.rows().get(0));

        ticker.advance(Duration.ofSeconds(25));
        assertThat(titles()).containsExactly("Article 0", "Article 1", "Article 2");
        assertThat(model.summaryProperty().get()).as("never \u201c3 of 2 active leases\u201d").startsWith("2 active leases");
        assertThat(model.selectedProperty().get().title()).as("still the selected lease").isEqualTo("Article 0");

        model.pointerOverProperty().set(false);
        assertThat(titles()).containsExactly("Article 1", "Article 2");
        assertThat(model.selectedProperty().get()).as("an ended lease is not selected once it leaves").isNull();
    }

    @Test
    void theLiveViewShowsAChangeWithinFiveSeconds() {
        services.queue().claim("dan");
        int seconds = 0;
        while (model.rows().size() < 4 && seconds < 5) {
            ticker.advance(Duration.ofSeconds(1));
            seconds++;
        }
        assertThat(model.rows()).hasSize(4);
        assertThat(seconds).isLessThanOrEqualTo(5);
    }
}
