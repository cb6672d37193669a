package org.copydesk.ui.editor;

import atlantafx.base.theme.Styles;
import java.util.prefs.Preferences;
import javafx.beans.property.IntegerProperty;
import javafx.beans.property.SimpleIntegerProperty;
import javafx.scene.control.CheckMenuItem;
import javafx.scene.control.MenuButton;
import javafx.scene.control.MenuItem;
import javafx.scene.control.SeparatorMenuItem;
import javafx.scene.control.Tooltip;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyCodeCombination;
import javafx.scene.input.KeyCombination;
import javafx.scene.input.KeyEvent;
import org.kordamp.ikonli.feather.Feather;
import org.kordamp.ikonli.javafx.FontIcon;

/**
 * The editor's settings, remembered in {@link EditorPreferences}: whether the list tops itself up
 * when work is waiting, and the text size of the reader and the notes (Ctrl+Plus, Ctrl+Minus,
 * Ctrl+0, also on the number pad and as Ctrl+= where Plus needs Shift).
 */
final class EditorSettingsMenu extends MenuButton {

    static final KeyCombination LARGER = new KeyCodeCombination(KeyCode.PLUS, KeyCombination.SHORTCUT_DOWN);
    static final KeyCombination SMALLER = new KeyCodeCombination(KeyCode.MINUS, KeyCombination.SHORTCUT_DOWN);
    static final KeyCombination NORMAL = new KeyCodeCombination(KeyCode.DIGIT0, KeyCombination.SHORTCUT_DOWN);

    private final Preferences root;
    private final IntegerProperty textSize = new SimpleIntegerProperty();
    private EditorPreferences prefs;

    EditorSettingsMenu(EditorViewModel model, Preferences root) {
        super(null, new FontIcon(Feather.SETTINGS));
        this.root = root;
        this.prefs = EditorPreferences.load(root);
        setId("editor-settings");
        setAccessibleText("Settings");
        setTooltip(new Tooltip("Settings: topping up, text size"));
        getStyleClass().addAll(Styles.BUTTON_ICON, Styles.FLAT);

        CheckMenuItem topUp = new CheckMenuItem("Top up my list by itself when work is waiting");
        topUp.setId("auto-top-up");
        topUp.setSelected(prefs.autoTopUp());
        model.autoTopUpProperty().set(prefs.autoTopUp());
        model.autoTopUpProperty().bind(topUp.selectedProperty());
        topUp.selectedProperty().addListener((o, was, on) -> save(prefs.withAutoTopUp(on)));

        MenuItem larger = new MenuItem("Larger text\t" + LARGER.getDisplayText());
        larger.setOnAction(e -> step(1));
        MenuItem smaller = new MenuItem("Smaller text\t" + SMALLER.getDisplayText());
        smaller.setOnAction(e -> step(-1));
        MenuItem normal = new MenuItem("Normal text size\t" + NORMAL.getDisplayText());
        normal.setOnAction(e -> step(0));
        getItems().addAll(topUp, new SeparatorMenuItem(), larger, smaller, normal);
        textSize.set(prefs.textSize());
    }

    /** Handles the text-size keys; true if it was one of them. */
    boolean handle(KeyEvent e) {
        if (!e.isShortcutDown()) {
            return false;
        }
        KeyCode k = e.getCode();
        if (k == KeyCode.PLUS || k == KeyCode.ADD || k == KeyCode.EQUALS) {
            step(1);
        } else if (k == KeyCode.MINUS || k == KeyCode.SUBTRACT) {
            step(-1);
        } else if (k == KeyCode.DIGIT0 || k == KeyCode.NUMPAD0) {
            step(0);
        } else {
            return false;
        }
        return true;
    }

    private void step(int step) {
        save(prefs.withTextStep(step));
    }

    private void save(EditorPreferences changed) {
        prefs = changed;
        textSize.set(changed.textSize());
        changed.save(root);
    }

    /** The reader's and the notes' font size, in points. */
    IntegerProperty textSize() {
        return textSize;
    }
}
