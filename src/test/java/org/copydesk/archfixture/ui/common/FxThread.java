package org.copydesk.archfixture.ui.common;

/** The one place allowed to call Platform.runLater. */
public final class FxThread {
    public void run(Runnable r) {
        javafx.application.Platform.runLater(r);
    }
}
