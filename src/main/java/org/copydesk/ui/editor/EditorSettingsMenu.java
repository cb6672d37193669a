package org.copydesk.ui.editor;

import atlantafx.base.theme.Styles;
import javafx.scene.control.CheckMenuItem;
import javafx.scene.control.MenuButton;
import javafx.scene.control.MenuItem;
import javafx.scene.control.SeparatorMenuItem;
import javafx.scene.control.Tooltip;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyCodeCombination;
import javafx.scene.input.KeyCombination;
import javafx.scene.input.KeyEvent;
import org.copydesk.ui.common.Messages;
import org.kordamp.ikonli.feather.Feather;
import org.kordamp.ikonli.javafx.FontIcon;

/**
 * The editor's settings menu ({@link EditorSettings}, remembered): whether the list tops itself up
 * when work is waiting, and the text size of the reader and the notes (Ctrl+Plus, Ctrl+Minus,
 * Ctrl+0, also on the number pad and as Ctrl+= where Plus needs Shift).
 */
final class EditorSettingsMenu extends MenuButton {

    static final KeyCombination LARGER = new KeyCodeCombination(KeyCode.PLUS, KeyCombination.SHORTCUT_DOWN);
    static final KeyCombination SMALLER = new KeyCodeCombination(KeyCode.MINUS, KeyCombination.SHORTCUT_DOWN);
    static final KeyCombination NORMAL = new KeyCodeCombination(KeyCode.DIGIT0, KeyCombination.SHORTCUT_DOWN);

    private final EditorSettings settings;

    EditorSettingsMenu(EditorSettings settings) {
        super(null, new FontIcon(Feather.SETTINGS));
        this.settings = settings;
        setId("editor-settings");
        setAccessibleText(Messages.text("editor.settings.accessible"));
        setTooltip(new Tooltip(Messages.text("editor.settings.tooltip")));
        getStyleClass().addAll(Styles.BUTTON_ICON, Styles.FLAT);

        CheckMenuItem topUp = new CheckMenuItem(Messages.text("editor.settings.autoTopUp"));
        topUp.setId("auto-top-up");
        topUp.selectedProperty().bindBidirectional(settings.autoTopUpProperty());

        MenuItem larger = new MenuItem(Messages.text("editor.settings.larger", LARGER.getDisplayText()));
        larger.setOnAction(e -> settings.textStep(1));
        MenuItem smaller = new MenuItem(Messages.text("editor.settings.smaller", SMALLER.getDisplayText()));
        smaller.setOnAction(e -> settings.textStep(-1));
        MenuItem normal = new MenuItem(Messages.text("editor.settings.normal", NORMAL.getDisplayText()));
        normal.setOnAction(e -> settings.textStep(0));
        getItems().addAll(topUp, new SeparatorMenuItem(), larger, smaller, normal);
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
        settings.textStep(step);
    }
}
