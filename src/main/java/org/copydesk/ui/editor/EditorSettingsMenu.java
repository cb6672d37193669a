package org.copydesk.ui.editor;

import atlantafx.base.theme.Styles;
import java.util.List;
import javafx.scene.control.CheckMenuItem;
import javafx.scene.control.Menu;
import javafx.scene.control.MenuButton;
import javafx.scene.control.MenuItem;
import javafx.scene.control.RadioMenuItem;
import javafx.scene.control.SeparatorMenuItem;
import javafx.scene.control.ToggleGroup;
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
 * when work is waiting, how long before a deadline the editor is warned, and the text size of the
 * reader and the notes (Ctrl+Plus, Ctrl+Minus, Ctrl+0, also on the number pad and as Ctrl+= where
 * Plus needs Shift).
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
        getItems().addAll(topUp, dueWarning(), new SeparatorMenuItem(), larger, smaller, normal);
    }

    /** Adds "Desks and stages I take work from…" at the top of the menu (an editor's window; not a supervisor's). */
    void offerWorkChoice(Runnable open) {
        MenuItem choose = new MenuItem(Messages.text("editor.workChoice.menu"));
        choose.setId("work-choice");
        choose.setOnAction(e -> open.run());
        getItems().addAll(0, List.of(choose, new SeparatorMenuItem()));
    }

    /** "Warn before a deadline": 5, 10 (the default), 15 or 30 minutes before a held article is due. */
    private Menu dueWarning() {
        Menu menu = new Menu(Messages.text("editor.settings.dueWarning"));
        menu.setId("due-warning");
        ToggleGroup group = new ToggleGroup();
        for (int minutes : EditorPreferences.DUE_WARNING_CHOICES) {
            RadioMenuItem item = new RadioMenuItem(Messages.text("editor.settings.dueWarning.minutes", minutes));
            item.setId("due-warning-" + minutes);
            item.setToggleGroup(group);
            item.setSelected(settings.dueWarningMinutesProperty().get() == minutes);
            item.setOnAction(e -> settings.dueWarningMinutesProperty().set(minutes));
            settings.dueWarningMinutesProperty().addListener((o, was, now) -> item.setSelected(now.intValue() == minutes));
            menu.getItems().add(item);
        }
        return menu;
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
