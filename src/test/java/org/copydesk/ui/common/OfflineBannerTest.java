package org.copydesk.ui.common;

import static org.assertj.core.api.Assertions.assertThat;

import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.geometry.Bounds;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.Region;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/** The layout does not move when the offline banner appears. */
class OfflineBannerTest {

    @Test
    void theBannerComesAndGoesWithoutMovingTheContent() throws Exception {
        FxToolkit.registerPrimaryStage();
        SimpleBooleanProperty offline = new SimpleBooleanProperty(false);
        Region content = new Region();
        Label[] banner = new Label[1];
        Stage[] stage = new Stage[1];
        FxToolkit.setupFixture(() -> {
            banner[0] = Chrome.offlineBanner(new SimpleStringProperty("Copydesk cannot reach the database."), offline);
            BorderPane root = new BorderPane(Chrome.underBanner(content, banner[0]));
            root.setTop(Chrome.toolbar(new Node[] {new Label("Copydesk")}));
            stage[0] = new Stage();
            Scene scene = new Scene(root, 1000, 700);
            Theme.LIGHT.apply(scene);
            stage[0].setScene(scene);
            stage[0].show();
        });
        WaitForAsyncUtils.waitForFxEvents();
        Bounds before = WaitForAsyncUtils.asyncFx(() -> content.localToScene(content.getLayoutBounds())).get();

        FxToolkit.setupFixture(() -> offline.set(true));
        WaitForAsyncUtils.waitForFxEvents();
        Bounds during = WaitForAsyncUtils.asyncFx(() -> content.localToScene(content.getLayoutBounds())).get();
        Bounds bannerBounds = WaitForAsyncUtils.asyncFx(() -> banner[0].localToScene(banner[0].getLayoutBounds())).get();

        assertThat(banner[0].isVisible()).isTrue();
        assertThat(during).as("the content while the banner shows").isEqualTo(before);
        assertThat(bannerBounds.getMinY()).as("the banner lies over the content's top edge").isEqualTo(before.getMinY());
        assertThat(bannerBounds.getHeight()).isGreaterThan(10).isLessThan(80);
        assertThat(bannerBounds.getWidth()).isEqualTo(before.getWidth());

        FxToolkit.setupFixture(() -> offline.set(false));
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(WaitForAsyncUtils.asyncFx(() -> content.localToScene(content.getLayoutBounds())).get()).isEqualTo(before);
        FxToolkit.setupFixture(() -> stage[0].close());
    }
}
