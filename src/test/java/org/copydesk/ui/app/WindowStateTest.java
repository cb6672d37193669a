package org.copydesk.ui.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import javafx.geometry.Rectangle2D;
import javafx.stage.Screen;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxToolkit;

/** A restored window never larger than the screen, and new windows never exactly on top of the last. */
class WindowStateTest {

    /** A 1440×900 laptop screen with a 40 px task bar. */
    private static final Rectangle2D LAPTOP = new Rectangle2D(0, 0, 1440, 860);
    /** The same screen at 150 % scaling, in JavaFX's logical pixels. */
    private static final Rectangle2D LAPTOP_150 = new Rectangle2D(0, 0, 960, 570);
    private static final Rectangle2D RIGHT_MONITOR = new Rectangle2D(1440, 0, 1920, 1040);

    @Test
    void aWindowSavedOnABiggerScreenIsFittedIntoTheVisualBoundsOfTheScreenItOpensOn() {
        WindowState saved = new WindowState(0, 0, 1918, 1175, false);

        assertThat(saved.fitted(List.of(LAPTOP), 0)).isEqualTo(new WindowState(0, 0, 1440, 860, false));
        // at 150 % even the layout's minimum (900×600) gives way to the screen
        assertThat(saved.fitted(List.of(LAPTOP_150), 0)).isEqualTo(new WindowState(0, 0, 960, 570, false));
    }

    @Test
    void aWindowHangingOffTheScreenIsMovedBackOntoItAndStaysOnTheMonitorItWasOn() {
        assertThat(new WindowState(1000, 500, 1280, 800, false).fitted(List.of(LAPTOP), 0))
                .isEqualTo(new WindowState(160, 60, 1280, 800, false));
        assertThat(new WindowState(2000, 100, 1280, 800, false).fitted(List.of(LAPTOP, RIGHT_MONITOR), 0))
                .isEqualTo(new WindowState(2000, 100, 1280, 800, false));
        // the right monitor was unplugged: centred on the primary screen by the window system
        WindowState gone = new WindowState(2000, 100, 1280, 800, true).fitted(List.of(LAPTOP), 0);
        assertThat(gone.x()).isNaN();
        assertThat(gone.width()).isEqualTo(1280);
        assertThat(gone.maximized()).isTrue();
    }

    @Test
    void eachWindowAlreadyOpenMovesTheNextOneAStepRightAndDown() {
        WindowState first = new WindowState(100, 50, 1200, 700, false);
        assertThat(first.fitted(List.of(LAPTOP), 0)).isEqualTo(first);
        assertThat(first.fitted(List.of(LAPTOP), 1)).isEqualTo(new WindowState(132, 82, 1200, 700, false));
        assertThat(first.fitted(List.of(LAPTOP), 2)).isEqualTo(new WindowState(164, 114, 1200, 700, false));
        // never placed before: the second window is a step off the centre, not on top of the first
        WindowState fresh = WindowState.defaults().fitted(List.of(LAPTOP), 1);
        assertThat(fresh.x()).isEqualTo((1440 - 1280) / 2.0 + 32);
        assertThat(fresh.y()).isEqualTo((860 - 800) / 2.0 + 32);
        assertThat(fresh.y() + fresh.height()).isLessThanOrEqualTo(860);
        // a full-screen window still cascades, wrapping inside the screen
        WindowState big = new WindowState(0, 0, 1440, 860, false).fitted(List.of(LAPTOP), 3);
        assertThat(big.x()).isEqualTo(96);
        assertThat(big.x() + big.width()).isLessThanOrEqualTo(1440);
        assertThat(big.y() + big.height()).isLessThanOrEqualTo(860);
    }

    @Test
    void aFrameThatGrewByItsTitleBarAfterShowingIsMovedBackOntoTheScreen() {
        // asked for 1440×860, given a 24 px title bar by the window manager afterwards
        assertThat(WindowState.onScreen(new Rectangle2D(0, 0, 1440, 884), List.of(LAPTOP)))
                .isEqualTo(new Rectangle2D(0, 0, 1440, 860));
        assertThat(WindowState.onScreen(new Rectangle2D(32, 300, 1000, 700), List.of(LAPTOP)))
                .isEqualTo(new Rectangle2D(32, 160, 1000, 700));
        assertThat(WindowState.onScreen(new Rectangle2D(2000, 100, 1280, 800), List.of(LAPTOP, RIGHT_MONITOR)))
                .as("stays on the monitor it is on").isEqualTo(new Rectangle2D(2000, 100, 1280, 800));
    }

    @Test
    void aShownWindowThatEndsBelowTheScreenIsKeptOnItWhileItSettles() throws Exception {
        FxToolkit.registerPrimaryStage();
        Rectangle2D screen = FxToolkit.setupFixture(() -> Screen.getPrimary().getVisualBounds());
        Stage stage = FxToolkit.setupStage(s -> { });
        FxToolkit.setupFixture(() -> {
            stage.setX(screen.getMinX() + 40);
            stage.setY(screen.getMinY() + 40);
            stage.setWidth(600);
            stage.setHeight(400);
            stage.show();
            WindowState.keepOnScreen(stage);
            // the window manager adds the title bar and the frame ends below the screen (the dashboard, a reopened window)
            stage.setY(screen.getMaxY() - 300);
            stage.setHeight(screen.getHeight() + 24);
        });
        double[] got = FxToolkit.setupFixture(() -> new double[] {stage.getY(), stage.getHeight()});
        FxToolkit.setupFixture(stage::close);
        assertThat(got[1]).isLessThanOrEqualTo(screen.getHeight());
        assertThat(got[0] + got[1]).as("the bottom edge").isLessThanOrEqualTo(screen.getMaxY());
        assertThat(got[0]).isGreaterThanOrEqualTo(screen.getMinY());
    }

    @Test
    void aRealStageGetsNoLargerThanTheScreen() throws Exception {
        FxToolkit.registerPrimaryStage();
        double[] got = new double[4];
        Rectangle2D[] screen = new Rectangle2D[1];
        FxToolkit.setupFixture(() -> {
            Stage stage = new Stage();
            screen[0] = Screen.getPrimary().getVisualBounds();
            new WindowState(0, 0, screen[0].getWidth() + 478, screen[0].getHeight() + 375, false).applyTo(stage);
            got[0] = stage.getX();
            got[1] = stage.getY();
            got[2] = stage.getWidth();
            got[3] = stage.getHeight();
        });
        assertThat(got[2]).isLessThanOrEqualTo(screen[0].getWidth());
        assertThat(got[3]).isLessThanOrEqualTo(screen[0].getHeight());
        assertThat(got[0] + got[2]).isLessThanOrEqualTo(screen[0].getMaxX());
        assertThat(got[1] + got[3]).isLessThanOrEqualTo(screen[0].getMaxY());
    }
}
