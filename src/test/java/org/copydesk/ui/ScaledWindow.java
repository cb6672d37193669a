package org.copydesk.ui;

import javafx.scene.Group;
import javafx.scene.Parent;
import javafx.scene.Scene;
import javafx.scene.layout.Region;
import javafx.scene.transform.Scale;
import javafx.stage.Stage;
import org.copydesk.ui.common.Theme;

/**
 * A view in a window of a given size, drawn as a screen at a given scale draws it: at 150 % a
 * 1440×900 screen lays out 960×600 logical pixels, so the view is laid out at that size and drawn
 * scaled (the headless screen is 1280×800: the scaled window is drawn clipped, laid out whole).
 * Call on the FX thread.
 */
public final class ScaledWindow {

    private ScaledWindow() {
    }

    /** Shows {@code view} laid out at {@code width}×{@code height} and drawn at {@code scale}, in the light theme. */
    public static Stage show(Region view, double width, double height, double scale) {
        Parent root = view;
        if (scale != 1) {
            view.setMinSize(width, height);
            view.setPrefSize(width, height);
            view.setMaxSize(width, height);
            view.getTransforms().add(new Scale(scale, scale));
            root = new Group(view);
        }
        Stage stage = new Stage();
        Scene scene = new Scene(root, Math.min(1280, width * scale), Math.min(800, height * scale));
        Theme.LIGHT.apply(scene);
        stage.setScene(scene);
        stage.show();
        return stage;
    }
}
