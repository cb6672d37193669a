package org.copydesk.ui.app;

import java.util.prefs.Preferences;
import javafx.geometry.Rectangle2D;
import javafx.stage.Screen;
import javafx.stage.Stage;

/** Where the window was and how big, remembered between runs. */
record WindowState(double x, double y, double width, double height, boolean maximized) {

    static WindowState defaults() {
        return new WindowState(Double.NaN, Double.NaN, 1280, 800, false);
    }

    static WindowState load(Preferences prefs) {
        WindowState d = defaults();
        return new WindowState(prefs.getDouble("window.x", d.x), prefs.getDouble("window.y", d.y),
                prefs.getDouble("window.width", d.width), prefs.getDouble("window.height", d.height),
                prefs.getBoolean("window.maximized", d.maximized));
    }

    static WindowState of(Stage stage) {
        return new WindowState(stage.getX(), stage.getY(), stage.getWidth(), stage.getHeight(), stage.isMaximized());
    }

    void save(Preferences prefs) {
        prefs.putDouble("window.x", x);
        prefs.putDouble("window.y", y);
        prefs.putDouble("window.width", width);
        prefs.putDouble("window.height", height);
        prefs.putBoolean("window.maximized", maximized);
    }

    /**
     * Applies size and position, unless the position is off every screen now (a monitor was
     * unplugged). Call it before the window is shown and once more after: JavaFX 21 on some Linux
     * window managers (GNOME's mutter 45+, openbox) ignores a size set before showing and opens a
     * 200×200 window (JDK-8316423, fixed in JavaFX 22); seen here under openbox.
     */
    void applyTo(Stage stage) {
        stage.setWidth(Math.max(900, width));
        stage.setHeight(Math.max(600, height));
        if (!Double.isNaN(x) && !Double.isNaN(y)
                && !Screen.getScreensForRectangle(new Rectangle2D(x, y, Math.max(1, width), Math.max(1, height))).isEmpty()) {
            stage.setX(x);
            stage.setY(y);
        }
        stage.setMaximized(maximized);
    }
}
