package org.copydesk.ui.supervisor;

import java.util.concurrent.TimeoutException;
import javafx.scene.Scene;
import javafx.stage.Stage;
import org.copydesk.ui.common.Theme;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/** A dashboard in a window of its own for a TestFX test (headless, Monocle), open on one tab. */
final class DashboardOnScreen implements AutoCloseable {

    private final DashboardViewModel model;
    private Stage stage;

    private DashboardOnScreen(DashboardViewModel model) {
        this.model = model;
    }

    /** Shows the model's dashboard at 1280x800 in the light theme, starts the model and opens the tab. */
    static DashboardOnScreen show(DashboardViewModel model, DashboardTab tab) throws TimeoutException {
        DashboardOnScreen screen = new DashboardOnScreen(model);
        FxToolkit.registerPrimaryStage();
        FxToolkit.setupFixture(() -> {
            DashboardView view = new DashboardView(model);
            screen.stage = new Stage();
            Scene scene = new Scene(view, 1280, 800);
            Theme.LIGHT.apply(scene);
            screen.stage.setScene(scene);
            screen.stage.show();
            model.start();
            view.show(tab);
        });
        WaitForAsyncUtils.waitForFxEvents();
        return screen;
    }

    /** Closes the model and the window. */
    @Override
    public void close() throws TimeoutException {
        FxToolkit.setupFixture(() -> {
            model.close();
            stage.close();
        });
    }
}
