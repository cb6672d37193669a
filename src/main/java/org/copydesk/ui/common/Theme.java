package org.copydesk.ui.common;

import atlantafx.base.theme.PrimerDark;
import atlantafx.base.theme.PrimerLight;
import javafx.application.Application;
import javafx.scene.Scene;

/** Light or dark, on AtlantaFX's Primer themes, plus Copydesk's own stylesheet. */
public enum Theme {
    LIGHT, DARK;

    public void apply(Scene scene) {
        Application.setUserAgentStylesheet(this == DARK ? new PrimerDark().getUserAgentStylesheet()
                : new PrimerLight().getUserAgentStylesheet());
        String css = Theme.class.getResource("copydesk.css").toExternalForm();
        if (!scene.getStylesheets().contains(css)) {
            scene.getStylesheets().add(css);
        }
    }

    public Theme other() {
        return this == DARK ? LIGHT : DARK;
    }
}
