package org.copydesk.archfixture.ui.editor;

import java.util.function.Consumer;
import org.copydesk.AllowedBecause;

/** Breaks wall 5 (a view model holding a control) and wall 6 (runLater by method reference). */
public final class EditorViewModel {
    public javafx.scene.control.Button button() {
        return null;
    }

    public Consumer<Runnable> fxThread() {
        return javafx.application.Platform::runLater;
    }

    @AllowedBecause("fixture: a method-level exception for runLater")
    public void exemptHop() {
        javafx.application.Platform.runLater(() -> { });
    }
}
