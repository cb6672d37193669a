package org.copydesk.ui.editor;

import java.util.function.Consumer;
import javafx.beans.value.ChangeListener;
import javafx.scene.Node;

/**
 * Whether the editor's window is short (1024x640, or a laptop's screen at 150 %): there the reader's
 * header parts keep to fewer lines, so that the article under them keeps its room.
 */
final class ShortWindow {

    /** Below this window height (in the window's own pixels) a window is short. */
    static final double HEIGHT = 720;

    private ShortWindow() {
    }

    /**
     * Calls {@code apply} with whether {@code node}'s window is short: once it is in a scene, and
     * again each time the window's height crosses {@link #HEIGHT}.
     */
    static void follow(Node node, Consumer<Boolean> apply) {
        ChangeListener<Number> resized = (o, was, now) -> {
            if ((was.doubleValue() < HEIGHT) != (now.doubleValue() < HEIGHT)) {
                apply.accept(now.doubleValue() < HEIGHT);
            }
        };
        node.sceneProperty().addListener((o, was, scene) -> {
            if (was != null) {
                was.heightProperty().removeListener(resized);
            }
            if (scene != null) {
                scene.heightProperty().addListener(resized);
            }
            apply.accept(scene != null && scene.getHeight() < HEIGHT);
        });
    }
}
