package org.copydesk.ui.editor;

import java.util.prefs.Preferences;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.IntegerProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleIntegerProperty;
import org.copydesk.ui.common.BackgroundTask;
import org.copydesk.ui.common.TaskExecutor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The editor's window's settings as properties (topping up by itself, text size, changes marked, the deadline
 * warning's lead time), read from and
 * written to {@link EditorPreferences} in the background: {@code java.util.prefs} reads and writes
 * a file, which the FX thread never waits on.
 */
public final class EditorSettings {

    private static final Logger log = LoggerFactory.getLogger(EditorSettings.class);

    private final TaskExecutor tasks;
    private final BooleanProperty autoTopUp = new SimpleBooleanProperty();
    private final IntegerProperty textSize = new SimpleIntegerProperty(EditorPreferences.DEFAULT_TEXT_SIZE);
    private final BooleanProperty showChanges = new SimpleBooleanProperty(true);
    private final IntegerProperty dueWarningMinutes = new SimpleIntegerProperty(EditorPreferences.DEFAULT_DUE_WARNING_MINUTES);
    private Preferences root;
    private boolean loading;

    EditorSettings(TaskExecutor tasks) {
        this.tasks = tasks;
        autoTopUp.addListener((o, was, on) -> save());
        showChanges.addListener((o, was, on) -> save());
        dueWarningMinutes.addListener((o, was, now) -> save());
    }

    /** Reads the remembered settings (in the background) and remembers every change from now on. */
    public void rememberIn(Preferences preferences) {
        BackgroundTask.of("read the editor's settings", () -> EditorPreferences.load(preferences))
                .onSuccess(p -> {
                    loading = true;
                    try {
                        autoTopUp.set(p.autoTopUp());
                        textSize.set(p.textSize());
                        showChanges.set(p.showChanges());
                        dueWarningMinutes.set(p.dueWarningMinutes());
                    } finally {
                        loading = false;
                    }
                    root = preferences;
                })
                .onFailure(e -> log.warn("Could not read the editor's settings; using the defaults: {}", e.toString()))
                .executeWith(tasks);
    }

    /** One step larger (+1) or smaller (-1), or back to the default size (0). */
    public void textStep(int step) {
        textSize.set(current().withTextStep(step).textSize());
        save();
    }

    private EditorPreferences current() {
        return new EditorPreferences(autoTopUp.get(), textSize.get(), showChanges.get(), dueWarningMinutes.get());
    }

    private void save() {
        if (loading || root == null) {
            return;
        }
        EditorPreferences p = current();
        Preferences where = root;
        BackgroundTask.of("remember the editor's settings", () -> p.save(where))
                .onFailure(e -> log.warn("Could not remember the editor's settings: {}", e.toString()))
                .executeWith(tasks);
    }

    /** The list tops itself up when work is waiting on the editor's desks. */
    public BooleanProperty autoTopUpProperty() {
        return autoTopUp;
    }

    /** A revised article's changes are marked in the reader ("Show changes"), rather than its clean text. */
    public BooleanProperty showChangesProperty() {
        return showChanges;
    }

    /** How long before a held article is due the editor is warned, in minutes. */
    public IntegerProperty dueWarningMinutesProperty() {
        return dueWarningMinutes;
    }

    /** The reader's font size in px (the notes' is two smaller). */
    public IntegerProperty textSizeProperty() {
        return textSize;
    }
}
