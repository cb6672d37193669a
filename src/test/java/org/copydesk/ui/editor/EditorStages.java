package org.copydesk.ui.editor;

import java.util.prefs.Preferences;
import javafx.scene.Scene;
import javafx.scene.layout.HBox;
import javafx.stage.Stage;
import org.copydesk.ui.common.Theme;
import org.testfx.api.FxToolkit;

/** The end of a TestFX test of the editor's window: its model and stage closed, its settings forgotten, the light theme back. */
final class EditorStages {

    private EditorStages() {
    }

    /** {@code model} and {@code stage} may be null (the test did not get as far as opening them). */
    static void closeAll(EditorViewModel model, Stage stage, Preferences prefs) throws Exception {
        FxToolkit.setupFixture(() -> {
            if (model != null) {
                model.close();
            }
            if (stage != null) {
                stage.close();
            }
        });
        prefs.removeNode();
        Theme.LIGHT.apply(new Scene(new HBox()));
    }
}
