package org.copydesk.ui.editor;

import java.util.List;
import java.util.prefs.Preferences;

/**
 * The editor's window's own settings, kept with the app's other preferences ({@code java.util.prefs}
 * under {@link org.copydesk.ui.common.UiPreferences#root()}, node {@code editor}).
 *
 * @param autoTopUp the list tops itself up when work is waiting on the editor's desks
 * @param textSize  the reader's font size in px (the notes' is two smaller)
 * @param showChanges a revised article opens with its changes marked ("Show changes"), not as clean text
 * @param dueWarningMinutes how long before a held article is due the editor is warned ("“Title” is due in 10 min")
 */
public record EditorPreferences(boolean autoTopUp, int textSize, boolean showChanges, int dueWarningMinutes) {

    /** The reader's size in the stylesheet (px); the notes are two smaller. */
    public static final int DEFAULT_TEXT_SIZE = 16;
    public static final int MIN_TEXT_SIZE = 11;
    public static final int MAX_TEXT_SIZE = 36;
    /** Long enough to finish or hand on a story, short enough not to cry wolf on a desk working to the minute. */
    public static final int DEFAULT_DUE_WARNING_MINUTES = 10;
    /** The lead times the settings menu offers. */
    public static final List<Integer> DUE_WARNING_CHOICES = List.of(5, 10, 15, 30);

    public static EditorPreferences defaults() {
        return new EditorPreferences(false, DEFAULT_TEXT_SIZE, true, DEFAULT_DUE_WARNING_MINUTES);
    }

    public EditorPreferences {
        textSize = Math.max(MIN_TEXT_SIZE, Math.min(MAX_TEXT_SIZE, textSize));
        dueWarningMinutes = Math.max(1, Math.min(120, dueWarningMinutes));
    }

    public static EditorPreferences load(Preferences root) {
        Preferences node = root.node("editor");
        return new EditorPreferences(node.getBoolean("autoTopUp", false), node.getInt("textSize", DEFAULT_TEXT_SIZE),
                node.getBoolean("showChanges", true), node.getInt("dueWarningMinutes", DEFAULT_DUE_WARNING_MINUTES));
    }

    public void save(Preferences root) {
        Preferences node = root.node("editor");
        node.putBoolean("autoTopUp", autoTopUp);
        node.putInt("textSize", textSize);
        node.putBoolean("showChanges", showChanges);
        node.putInt("dueWarningMinutes", dueWarningMinutes);
    }

    public EditorPreferences withAutoTopUp(boolean on) {
        return new EditorPreferences(on, textSize, showChanges, dueWarningMinutes);
    }

    /** One step larger or smaller (+1 / -1), or back to the default (0). */
    public EditorPreferences withTextStep(int step) {
        return new EditorPreferences(autoTopUp, step == 0 ? DEFAULT_TEXT_SIZE : textSize + step, showChanges,
                dueWarningMinutes);
    }
}
