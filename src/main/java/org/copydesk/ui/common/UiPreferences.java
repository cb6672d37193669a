package org.copydesk.ui.common;

import java.util.prefs.Preferences;

/**
 * The root of Copydesk's per-user preferences ({@code java.util.prefs}); each feature keeps a small
 * record of its own under it. Tests point it elsewhere with {@code -Dcopydesk.prefs=NODE}.
 */
public final class UiPreferences {

    private UiPreferences() {
    }

    public static Preferences root() {
        return Preferences.userRoot().node(System.getProperty("copydesk.prefs", "org/copydesk"));
    }

    /** The theme, remembered. */
    public static Theme theme() {
        try {
            return Theme.valueOf(root().get("theme", Theme.LIGHT.name()));
        } catch (IllegalArgumentException e) {
            return Theme.LIGHT;
        }
    }

    public static void saveTheme(Theme theme) {
        root().put("theme", theme.name());
    }
}
