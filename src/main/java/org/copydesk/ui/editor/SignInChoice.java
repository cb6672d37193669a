package org.copydesk.ui.editor;

import java.util.Arrays;
import java.util.List;
import java.util.prefs.Preferences;

/** Who signed in last on this PC, and which desks each supervisor chose to work on (an editor's choice is the database's). */
public record SignInChoice(String lastEditor) {

    public static SignInChoice defaults() {
        return new SignInChoice("");
    }

    public static SignInChoice load(Preferences prefs) {
        return new SignInChoice(prefs.get("signin.lastEditor", ""));
    }

    public void save(Preferences prefs) {
        prefs.put("signin.lastEditor", lastEditor);
    }

    /** The desks this editor chose last time, or null if never chosen. */
    public static List<String> desksOf(Preferences prefs, String editorId) {
        String value = prefs.get("signin.desks." + editorId, null);
        return value == null ? null : Arrays.stream(value.split(",")).filter(s -> !s.isBlank()).toList();
    }
}
