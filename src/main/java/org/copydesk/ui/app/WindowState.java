package org.copydesk.ui.app;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.prefs.Preferences;
import javafx.animation.PauseTransition;
import javafx.beans.property.ReadOnlyDoubleProperty;
import javafx.beans.value.ChangeListener;
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

    /** The smallest window the layout is made for; a smaller screen still wins (see {@link #fitted}). */
    static final double MIN_WIDTH = 900;
    static final double MIN_HEIGHT = 600;
    /** How far each further window opens right and down of the one before. */
    static final double CASCADE_STEP = 32;

    /**
     * Applies size and position fitted to the screens as they are now (see {@link #fitted}). Call
     * it before the window is shown and once more after: JavaFX 21 on some Linux window managers
     * (GNOME's mutter 45+, openbox) ignores a size set before showing and opens a 200×200 window
     * (JDK-8316423, fixed in JavaFX 22); seen here under openbox.
     *
     * @param cascade how many Copydesk windows are open already; each moves this one a step right and down
     */
    void applyTo(Stage stage, int cascade) {
        WindowState fit = fitted(screens(), cascade);
        stage.setWidth(fit.width);
        stage.setHeight(fit.height);
        if (!Double.isNaN(fit.x) && !Double.isNaN(fit.y)) {
            stage.setX(fit.x);
            stage.setY(fit.y);
        }
        stage.setMaximized(maximized);
    }

    void applyTo(Stage stage) {
        applyTo(stage, 0);
    }

    /**
     * Asks again for {@code stage}'s size and place when, in the moments after it is shown, the
     * window manager gave it a window of less than half of it: under openbox, JavaFX 21 opened the
     * dashboard at the size and place it asked for and a moment later found it at 200×200 in the
     * corner (JDK-8316423, fixed in JavaFX 22); setting the size before and right after showing did
     * not help. Watched for {@link #SETTLING}, asked at most three times; a window the user makes
     * small later is left alone.
     */
    static void insistOnSize(Stage stage, WindowState wanted) {
        int[] asked = {0};
        Runnable ask = () -> {
            if (!stage.isShowing() || stage.isMaximized() || stage.isFullScreen() || asked[0] >= 3
                    || stage.getWidth() >= wanted.width / 2 && stage.getHeight() >= wanted.height / 2) {
                return;
            }
            asked[0]++;
            stage.setWidth(wanted.width);
            stage.setHeight(wanted.height);
            if (!Double.isNaN(wanted.x) && !Double.isNaN(wanted.y)) {
                stage.setX(wanted.x);
                stage.setY(wanted.y);
            }
        };
        // not within the size's own change: just after it, on the FX thread
        ChangeListener<Number> resized = (o, was, now) -> {
            PauseTransition next = new PauseTransition(javafx.util.Duration.millis(1));
            next.setOnFinished(e -> ask.run());
            next.play();
        };
        List<ReadOnlyDoubleProperty> watched = List.of(stage.widthProperty(), stage.heightProperty());
        watched.forEach(p -> p.addListener(resized));
        PauseTransition settled = new PauseTransition(SETTLING);
        settled.setOnFinished(e -> watched.forEach(p -> p.removeListener(resized)));
        settled.play();
    }

    /** How long after showing a window its frame is kept on the screen: window managers report the frame's size late. */
    static final javafx.util.Duration SETTLING = javafx.util.Duration.seconds(3);

    /**
     * Keeps {@code stage}'s frame (title bar and borders included) wholly on the screen it is on
     * for {@link #SETTLING} after it is shown. The size asked for before showing is the inside of the
     * window on some window managers, which add the title bar later: under load (openbox, a working
     * day with five windows) windows opened partly below the screen's bottom edge.
     */
    static void keepOnScreen(Stage stage) {
        Runnable fit = () -> {
            if (stage.isMaximized() || stage.isFullScreen() || !stage.isShowing()) {
                return;
            }
            Rectangle2D frame = new Rectangle2D(stage.getX(), stage.getY(), Math.max(1, stage.getWidth()),
                    Math.max(1, stage.getHeight()));
            Rectangle2D fitted = onScreen(frame, screens());
            if (!fitted.equals(frame)) {
                stage.setWidth(fitted.getWidth());
                stage.setHeight(fitted.getHeight());
                stage.setX(fitted.getMinX());
                stage.setY(fitted.getMinY());
            }
        };
        ChangeListener<Number> moved = (o, was, now) -> fit.run();
        List<ReadOnlyDoubleProperty> watched = List.of(stage.xProperty(), stage.yProperty(), stage.widthProperty(),
                stage.heightProperty());
        watched.forEach(p -> p.addListener(moved));
        PauseTransition settled = new PauseTransition(SETTLING);
        settled.setOnFinished(e -> watched.forEach(p -> p.removeListener(moved)));
        settled.play();
        fit.run();
    }

    /**
     * {@code frame} moved (and, if it must, made smaller) so that it lies wholly on the screen it
     * overlaps most, or the first screen if it overlaps none.
     */
    static Rectangle2D onScreen(Rectangle2D frame, List<Rectangle2D> screens) {
        if (screens.isEmpty()) {
            return frame;
        }
        Rectangle2D screen = overlappedMost(frame, screens).orElse(screens.get(0));
        double w = Math.min(frame.getWidth(), screen.getWidth());
        double h = Math.min(frame.getHeight(), screen.getHeight());
        double x = clamp(frame.getMinX(), screen.getMinX(), screen.getMaxX() - w);
        double y = clamp(frame.getMinY(), screen.getMinY(), screen.getMaxY() - h);
        return new Rectangle2D(x, y, w, h);
    }

    /** The screens' visual bounds (without task bars and docks), the primary screen first. */
    static List<Rectangle2D> screens() {
        List<Rectangle2D> screens = new ArrayList<>();
        screens.add(Screen.getPrimary().getVisualBounds());
        Screen.getScreens().stream().filter(s -> !s.equals(Screen.getPrimary())).forEach(s -> screens.add(s.getVisualBounds()));
        return screens;
    }

    /**
     * This state made to fit the screens' visual bounds (primary first): on the screen it overlaps
     * most, no larger than that screen and wholly on it. A window saved on a larger screen, or at
     * another scaling (150 % turns a 1440×900 screen into 960×600 logical pixels), shrinks to fit;
     * one saved on a screen that is gone opens centred on the primary one. {@code cascade} moves it
     * a step right and down per window already open, so a new window never hides the previous one.
     */
    WindowState fitted(List<Rectangle2D> screens, int cascade) {
        if (screens.isEmpty()) {
            return this;
        }
        boolean placed = !Double.isNaN(x) && !Double.isNaN(y);
        Rectangle2D screen = screens.get(0);
        if (placed) {
            Optional<Rectangle2D> saved = overlappedMost(new Rectangle2D(x, y, Math.max(1, width), Math.max(1, height)), screens);
            placed = saved.isPresent(); // off every screen now (a monitor was unplugged): centre it instead
            screen = saved.orElse(screen);
        }
        double w = Math.min(Math.max(MIN_WIDTH, width), screen.getWidth());
        double h = Math.min(Math.max(MIN_HEIGHT, height), screen.getHeight());
        int steps = Math.max(0, cascade) % 8;
        if (!placed && steps == 0) {
            return new WindowState(Double.NaN, Double.NaN, w, h, maximized); // the window system centres it
        }
        double px = placed ? x : screen.getMinX() + (screen.getWidth() - w) / 2;
        double py = placed ? y : screen.getMinY() + (screen.getHeight() - h) / 2;
        if (steps > 0) {
            px += steps * CASCADE_STEP;
            py += steps * CASCADE_STEP;
            // a window as large as the screen gives up a little room so that the step shows
            w = Math.max(Math.min(w, screen.getMaxX() - px), Math.min(w, screen.getWidth() * 2 / 3));
            h = Math.max(Math.min(h, screen.getMaxY() - py), Math.min(h, screen.getHeight() * 2 / 3));
        }
        px = clamp(px, screen.getMinX(), screen.getMaxX() - w);
        py = clamp(py, screen.getMinY(), screen.getMaxY() - h);
        return new WindowState(px, py, w, h, maximized);
    }

    /** The screen {@code frame} overlaps most; empty if it overlaps none. */
    private static Optional<Rectangle2D> overlappedMost(Rectangle2D frame, List<Rectangle2D> screens) {
        Rectangle2D most = null;
        double best = 0;
        for (Rectangle2D s : screens) {
            double overlap = overlap(s, frame);
            if (overlap > best) {
                best = overlap;
                most = s;
            }
        }
        return Optional.ofNullable(most);
    }

    private static double overlap(Rectangle2D a, Rectangle2D b) {
        double w = Math.min(a.getMaxX(), b.getMaxX()) - Math.max(a.getMinX(), b.getMinX());
        double h = Math.min(a.getMaxY(), b.getMaxY()) - Math.max(a.getMinY(), b.getMinY());
        return w > 0 && h > 0 ? w * h : 0;
    }

    private static double clamp(double v, double min, double max) {
        return Math.max(min, Math.min(v, max));
    }
}
