package org.copydesk.ui.editor;

import java.util.prefs.Preferences;

/**
 * The editor's window's own settings, kept with the app's other preferences ({@code java.util.prefs}
 * under {@link org.copydesk.ui.common.UiPreferences#root()}, node {@code editor}).
 *
 * @param autoTopUp the list tops itself up when work is waiting on the editor's desks
 * @param textSize  the reader's font size in px (the notes' is two smaller)
 * @param showChanges a revised article opens with its changes marked ("Show changes"), not as clean text
 */
public record EditorPreferences(boolean autoTopUp, int textSize, boolean showChanges) {

    /** The reader's size in the stylesheet (px); the notes are two smaller. */
    public static final int DEFAULT_TEXT_SIZE = 16;
    public static final int MIN_TEXT_SIZE = 11;
    public static final int MAX_TEXT_SIZE = 36;

    public static EditorPreferences defaults() {
        return new EditorPreferences(false, DEFAULT_TEXT_SIZE, true);
    }

    public EditorPreferences {
        textSize = Math.max(MIN_TEXT_SIZE, Math.min(MAX_TEXT_SIZE, textSize));
    }

    public static EditorPreferences load(Preferences root) {
        Preferences node = root.node("editor");
        return new EditorPreferences(node.getBoolean("autoTopUp", false), node.getInt("textSize", DEFAULT_TEXT_SIZE),
                node.getBoolean("showChanges", true));
    }

    public void save(Preferences root) {
        Preferences node = root.node("editor");
        node.putBoolean("autoTopUp", autoTopUp);
        node.putInt("textSize", textSize);
        node.putBoolean("showChanges", showChanges);
    }

    public EditorPreferences withAutoTopUp(boolean on) {
        return new EditorPreferences(on, textSize, showChanges);
    }

    /** One step larger or smaller (+1 / -1), or back to the default (0). */
    public EditorPreferences withTextStep(int step) {
        return new EditorPreferences(autoTopUp, step == 0 ? DEFAULT_TEXT_SIZE : textSize + step, showChanges);
    }
}
