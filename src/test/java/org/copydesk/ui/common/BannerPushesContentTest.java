package org.copydesk.ui.common;

import static org.assertj.core.api.Assertions.assertThat;

import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.geometry.Bounds;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.scene.control.TextArea;
import javafx.scene.layout.VBox;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The offline banner at 1024×640 (headless, Monocle), as the editor's window and each dashboard
 * tab place it ({@link Chrome#underBanner}): while it shows, the article's title is below it, not
 * under it; while it does not, it takes no room.
 */
class BannerPushesContentTest {

    private final FxRobot robot = new FxRobot();
    private final SimpleBooleanProperty offline = new SimpleBooleanProperty();
    private Stage stage;
    private Label title;
    private Label banner;

    @AfterEach
    void close() throws Exception {
        FxToolkit.setupFixture(() -> stage.close());
    }

    private void show() throws Exception {
        FxToolkit.registerPrimaryStage();
        FxToolkit.setupFixture(() -> {
            title = new Label("Pool to close after a long night in the council chamber");
            VBox article = new VBox(8, title, new TextArea("The council voted at 2 a.m. to close the pool."));
            banner = Chrome.offlineBanner(new SimpleStringProperty("Cannot reach the database. Your work is kept here; "
                    + "Copydesk tries again every few seconds and says when it is back."), offline);
            stage = new Stage();
            Scene scene = new Scene(Chrome.underBanner(article, banner), 1024, 640);
            Theme.LIGHT.apply(scene);
            stage.setScene(scene);
            stage.show();
        });
        WaitForAsyncUtils.waitForFxEvents();
    }

    private static Bounds inScene(Node n) {
        return n.localToScene(n.getLayoutBounds());
    }

    @Test
    void whileTheBannerShowsTheArticlesTitleIsBelowItAndWhenItGoesTheTitleIsBackAtTheTop() throws Exception {
        show();
        double top = inScene(title).getMinY();

        robot.interact(() -> offline.set(true));
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(banner.isVisible()).as("the control: the banner shows").isTrue();
        assertThat(inScene(banner).getHeight()).isGreaterThan(10);
        assertThat(inScene(title).getMinY()).as("the title starts below the banner")
                .isGreaterThanOrEqualTo(inScene(banner).getMaxY() - 0.5);

        robot.interact(() -> offline.set(false));
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(inScene(title).getMinY()).as("no room kept for a banner not shown").isEqualTo(top);
    }
}
