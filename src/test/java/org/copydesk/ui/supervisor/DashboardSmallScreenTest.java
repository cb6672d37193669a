package org.copydesk.ui.supervisor;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import javafx.scene.Scene;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.stage.Stage;
import org.copydesk.review.Editor;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.Role;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.ManualTicker;
import org.copydesk.testing.TestDatabase;
import org.copydesk.ui.common.TaskExecutor;
import org.copydesk.ui.common.Theme;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/**
 * "Who holds what" on a small screen (headless, Monocle): at 1024×640, and 150 % of a 1440×900
 * screen (960×600 logical pixels), the Article column keeps room to read a title; the other
 * columns give way first. It was squeezed to ~70 px while every other column kept its full width.
 */
@ExtendWith(DatabaseExtension.class)
class DashboardSmallScreenTest {

    private final ReviewSession services;
    private final TestDatabase db;
    private final ManualTicker ticker = new ManualTicker();
    private final FxRobot robot = new FxRobot();
    private DashboardViewModel model;
    private Stage stage;

    DashboardSmallScreenTest(TestDatabase db) {
        this.db = db;
        this.services = new ReviewSession(db.database(), ReviewSession.Options.defaults());
    }

    private void show(double width, double height) throws Exception {
        Fixtures.emptyNewsroom(db.dsl());
        services.newsroom().addDesk("news", "News", Duration.ofMinutes(30));
        services.newsroom().addEditor("ann", "Ann Kowalski", Role.EDITOR, 3, List.of("news"));
        Editor sue = services.newsroom().addEditor("sue", "Sue Lindqvist", Role.SUPERVISOR, 5, List.of("news"));
        Fixtures.articles(db.dsl(), "news", 4, 3, -60);
        services.queue().claim("ann");
        model = new DashboardViewModel(services, TaskExecutor.sameThread(), ticker, sue, DashboardViewModel.Settings.defaults(),
                ZoneId.of("UTC"));
        FxToolkit.registerPrimaryStage();
        FxToolkit.setupFixture(() -> {
            stage = new Stage();
            Scene scene = new Scene(new DashboardView(model), width, height);
            Theme.LIGHT.apply(scene);
            stage.setScene(scene);
            stage.show();
            model.start();
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

    @ParameterizedTest(name = "{0}")
    @CsvSource({"1024x640, 1024, 640", "150 % on a 1440x900 screen, 960, 600"})
    void theArticleColumnKeepsRoomToReadATitleAndTheOthersGiveWay(String what, double width, double height) throws Exception {
        show(width, height);
        TableView<?> table = robot.lookup("#holders").queryAs(TableView.class);
        double article = table.getColumns().stream().filter(c -> "col-article".equals(c.getId())).findFirst().orElseThrow().getWidth();

        assertThat(table.getItems()).as("the control: the leases are shown").hasSize(3);
        assertThat(article).as("%s: the Article column", what).isGreaterThanOrEqualTo(HoldersPage.ARTICLE_MIN_WIDTH - 1);
        double columns = table.getColumns().stream().mapToDouble(TableColumn::getWidth).sum();
        assertThat(columns).as("%s: all columns fit the table, no sideways scrolling", what).isLessThanOrEqualTo(table.getWidth());
    }
}
