package org.copydesk.ui.supervisor;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import javafx.geometry.Bounds;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.scene.control.TabPane;
import javafx.stage.Stage;
import org.copydesk.review.Editor;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.Role;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.HeldBackTasks;
import org.copydesk.testing.ManualTicker;
import org.copydesk.testing.TestDatabase;
import org.copydesk.ui.common.Theme;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The dashboard while the database does not answer (headless, Monocle): the banner says so over
 * the page, and the tabs above it stay in reach: the supervisor can still look at every page as
 * last seen.
 */
@ExtendWith(DatabaseExtension.class)
class DashboardBannerTest {

    private final ReviewSession services;
    private final TestDatabase db;
    private final ManualTicker ticker = new ManualTicker();
    private final HeldBackTasks frozen = new HeldBackTasks(); // the work is done, its answer does not come back
    private final FxRobot robot = new FxRobot();
    private DashboardViewModel model;
    private Stage stage;

    DashboardBannerTest(TestDatabase db) {
        this.db = db;
        this.services = new ReviewSession(db.database(), ReviewSession.Options.defaults());
    }

    @BeforeEach
    void show() throws Exception {
        Fixtures.emptyNewsroom(db.dsl());
        services.newsroom().addDesk("news", "News", Duration.ofMinutes(30));
        services.newsroom().addEditor("ann", "Ann Kowalski", Role.EDITOR, 3, List.of("news"));
        Editor sue = services.newsroom().addEditor("sue", "Sue Lindqvist", Role.SUPERVISOR, 5, List.of("news"));
        Fixtures.articles(db.dsl(), "news", 4, 3, -60);
        services.queue().claim("ann");
        model = new DashboardViewModel(services, frozen, ticker, sue, DashboardViewModel.Settings.defaults(), ZoneId.of("UTC"));
        FxToolkit.registerPrimaryStage();
        FxToolkit.setupFixture(() -> {
            stage = new Stage();
            Scene scene = new Scene(new DashboardView(model), 1024, 640);
            Theme.LIGHT.apply(scene);
            stage.setScene(scene);
            stage.show();
            model.start();
            frozen.deliver();
        });
        WaitForAsyncUtils.waitForFxEvents();
    }

    @AfterEach
    void close() throws Exception {
        FxToolkit.setupFixture(() -> {
            model.close();
            stage.close();
        });
    }

    @Test
    void theBannerCoversNoTabAndEveryTabCanBeChosenWhileTheDatabaseDoesNotAnswer() {
        robot.interact(() -> {
            ticker.advance(Duration.ofSeconds(2)); // the refreshes are handed over; no answer comes
            ticker.advance(DashboardViewModel.Settings.defaults().unansweredAfter().plusSeconds(1));
        });
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(model.offlineProperty().get()).as("not answering").isTrue();

        TabPane tabs = robot.lookup("#dashboard-tabs").queryAs(TabPane.class);
        for (DashboardTab which : DashboardTab.values()) {
            Node header = robot.lookup("#tab-" + which.fileStem()).query(); // the tab's header (its id is the tab's)
            robot.clickOn(header);
            WaitForAsyncUtils.waitForFxEvents();
            assertThat(tabs.getSelectionModel().getSelectedItem().getUserData()).as("%s chosen while the banner shows", which)
                    .isEqualTo(which);
            Label banner = shownBanner();
            assertThat(banner.getText()).startsWith("The database is not answering.");
            Bounds headerOnScreen = header.localToScene(header.getLayoutBounds()); // without the shadow drawn below it
            Bounds bannerOnScreen = banner.localToScene(banner.getLayoutBounds());
            assertThat(bannerOnScreen.getMinY()).as("%s: the banner starts below the tab's header", which)
                    .isGreaterThanOrEqualTo(headerOnScreen.getMaxY() - 0.5);
        }
    }

    /** The banner of the page on show (each page has its own, laid over its top). */
    private Label shownBanner() {
        return robot.lookup(".offline-banner").queryAllAs(Label.class).stream()
                .filter(DashboardBannerTest::onShownTab)
                .findFirst().orElseThrow(() -> new AssertionError("no banner on the page on show"));
    }

    /** Shown, and so are all its parents (the pane hides the pages of the tabs not chosen). */
    private static boolean onShownTab(Node node) {
        for (Node n = node; n != null; n = n.getParent()) {
            if (!n.isVisible()) {
                return false;
            }
        }
        return true;
    }
}
