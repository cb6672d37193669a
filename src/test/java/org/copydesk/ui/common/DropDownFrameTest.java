package org.copydesk.ui.common;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import javafx.scene.Scene;
import javafx.scene.control.ChoiceBox;
import javafx.scene.control.ComboBox;
import javafx.scene.control.ComboBoxBase;
import javafx.scene.image.WritableImage;
import javafx.scene.layout.HBox;
import javafx.scene.paint.Color;
import javafx.stage.PopupWindow;
import javafx.stage.Stage;
import javafx.stage.Window;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/**
 * Dark-mode drop-downs have no white frame: a drop-down's window has nothing light
 * at its edges in the dark theme: no transparent rounded corners or shadow margin that a window
 * system without a compositor paints white.
 */
class DropDownFrameTest {

    private Stage stage;

    @AfterEach
    void close() throws Exception {
        FxToolkit.setupFixture(() -> {
            if (stage != null) {
                stage.close();
            }
            Theme.LIGHT.apply(new Scene(new HBox()));
        });
    }

    @Test
    void darkDropDownsHaveNoLightEdge() throws Exception {
        FxToolkit.registerPrimaryStage();
        ComboBox<String> combo = new ComboBox<>();
        ChoiceBox<String> choice = new ChoiceBox<>();
        FxToolkit.setupFixture(() -> {
            combo.getItems().addAll("Any action", "claim", "renew", "release");
            choice.getItems().addAll("No grouping", "By editor", "By desk");
            stage = new Stage();
            Scene scene = new Scene(new HBox(20, combo, choice), 600, 400);
            Theme.DARK.apply(scene);
            stage.setScene(scene);
            stage.show();
        });
        List<String> light = new ArrayList<>();
        FxToolkit.setupFixture(combo::show);
        WaitForAsyncUtils.waitForFxEvents();
        light.addAll(lightEdges("combo box"));
        FxToolkit.setupFixture(() -> {
            combo.hide();
            choice.show();
        });
        WaitForAsyncUtils.waitForFxEvents();
        light.addAll(lightEdges("choice box"));
        FxToolkit.setupFixture(choice::hide);
        assertThat(light).as("light pixels at the edges of dark drop-downs").isEmpty();
    }

    /** The corner pixels of every open popup, as drawn on an opaque white background (what a window system without compositing shows). */
    private static List<String> lightEdges(String what) throws Exception {
        return WaitForAsyncUtils.asyncFx(() -> {
            List<String> found = new ArrayList<>();
            int popups = 0;
            for (Window w : Window.getWindows()) {
                if (!(w instanceof PopupWindow) || !w.isShowing()) {
                    continue;
                }
                popups++;
                w.getScene().setFill(Color.WHITE);
                WritableImage img = w.getScene().getRoot().snapshot(null, null);
                int wd = (int) img.getWidth();
                int ht = (int) img.getHeight();
                int[][] corners = {{0, 0}, {wd - 1, 0}, {0, ht - 1}, {wd - 1, ht - 1}, {2, 2}, {wd - 3, ht - 3}};
                for (int[] c : corners) {
                    Color px = img.getPixelReader().getColor(c[0], c[1]);
                    if (px.getOpacity() < 0.99 || px.getBrightness() > 0.5) {
                        found.add(what + " at " + c[0] + "," + c[1] + " of " + wd + "x" + ht + ": " + px);
                    }
                }
            }
            assertThat(popups).as("open drop-downs (%s)", what).isPositive();
            return found;
        }).get();
    }
}
