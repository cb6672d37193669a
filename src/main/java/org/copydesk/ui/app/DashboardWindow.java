package org.copydesk.ui.app;

import atlantafx.base.theme.Styles;
import java.time.ZoneId;
import java.util.function.Supplier;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.Tooltip;
import javafx.stage.Stage;
import javafx.stage.Window;
import org.copydesk.review.Editor;
import org.copydesk.review.ReviewSession;
import org.copydesk.ui.common.DesktopAttention;
import org.copydesk.ui.common.FxTicker;
import org.copydesk.ui.common.Messages;
import org.copydesk.ui.common.TaskExecutor;
import org.copydesk.ui.common.Theme;
import org.copydesk.ui.supervisor.DashboardView;
import org.copydesk.ui.supervisor.DashboardViewModel;
import org.kordamp.ikonli.feather.Feather;
import org.kordamp.ikonli.javafx.FontIcon;

/**
 * The supervisor's dashboard in a window of its own, opened from the editor's toolbar. Kept apart
 * from {@link CopydeskApp} so the composition root only adds the button. One window at most: the
 * button brings an open one to the front.
 */
final class DashboardWindow {

    private Stage stage;
    private DashboardViewModel model;
    /** Where the dashboard's warnings reach the desktop while it is behind (a new deadline at risk). */
    private final DesktopAttention.Alerts alerts;

    DashboardWindow(DesktopAttention.Alerts alerts) {
        this.alerts = alerts;
    }

    /** The toolbar button; only shown to supervisors and admins (the caller checks the role). */
    Button button(Editor supervisor, ReviewSession session, TaskExecutor tasks, Supplier<Theme> theme) {
        Button open = new Button(Messages.text("app.dashboard.open"), new FontIcon(Feather.MONITOR));
        open.setId("open-dashboard");
        open.getStyleClass().add(Styles.BUTTON_OUTLINED);
        open.setTooltip(new Tooltip(Messages.text("app.dashboard.tooltip")));
        open.setOnAction(e -> open(supervisor, session, tasks, theme.get(),
                open.getScene() == null ? null : open.getScene().getWindow()));
        return open;
    }

    void open(Editor supervisor, ReviewSession session, TaskExecutor tasks, Theme theme) {
        open(supervisor, session, tasks, theme, null);
    }

    /** @param beside the editor's window: the dashboard opens a step right and down of it, not on top of it */
    void open(Editor supervisor, ReviewSession session, TaskExecutor tasks, Theme theme, Window beside) {
        if (stage != null) {
            stage.toFront();
            return;
        }
        model = new DashboardViewModel(session, tasks, new FxTicker(), supervisor, DashboardViewModel.Settings.defaults(),
                ZoneId.systemDefault());
        // never larger than the screen: small laptop screens (and the headless test screen) included
        WindowState place = new WindowState(beside == null ? Double.NaN : beside.getX() + WindowState.CASCADE_STEP,
                beside == null ? Double.NaN : beside.getY() + WindowState.CASCADE_STEP, 1360, 840, false)
                .fitted(WindowState.screens(), 0);
        double width = place.width();
        double height = place.height();
        Scene scene = new Scene(new DashboardView(model, alerts), width, height);
        theme.apply(scene);
        stage = new Stage();
        stage.setTitle(Messages.text("app.dashboard.title", supervisor.displayName()));
        stage.setScene(scene);
        stage.setOnHidden(e -> close());
        // the stage's own size before showing, as the main window has (its scene's alone is ignored: JDK-8316423)
        stage.setWidth(width);
        stage.setHeight(height);
        if (!Double.isNaN(place.x())) {
            stage.setX(place.x());
            stage.setY(place.y());
        }
        stage.show();
        // JavaFX 21 may open it at 200x200 on some Linux window managers (see WindowState.applyTo)
        WindowState.insistOnSize(stage, place);
        WindowState.keepOnScreen(stage); // the scene was made as large as the screen: with its title bar the window is larger
        model.start();
    }

    /** The open dashboard's stage, if any (for tests). */
    Stage stage() {
        return stage;
    }

    void close() {
        if (model != null) {
            model.close();
            model = null;
        }
        if (stage != null) {
            Stage s = stage;
            stage = null;
            s.hide();
        }
    }
}
