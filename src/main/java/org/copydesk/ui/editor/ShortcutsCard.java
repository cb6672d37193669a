package org.copydesk.ui.editor;

import atlantafx.base.theme.Styles;
import javafx.scene.control.Label;
import javafx.scene.input.KeyCombination;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Region;
import javafx.scene.layout.StackPane;
import javafx.scene.layout.VBox;
import org.copydesk.review.Verdict;
import org.copydesk.ui.common.Messages;

/** Every keyboard shortcut of the editor's window, over the window (F1; Esc or a click closes it). */
final class ShortcutsCard extends StackPane {

    ShortcutsCard() {
        VBox card = new VBox(8);
        card.getStyleClass().add("help-card");
        card.setMaxSize(440, Region.USE_PREF_SIZE);
        Label title = new Label(Messages.text("editor.help.title"));
        title.getStyleClass().add(Styles.TITLE_3);
        card.getChildren().add(title);
        add(card, EditorView.RELOAD, Messages.text("editor.shortcut.reload"));
        add(card, EditorView.NEXT, Messages.text("editor.shortcut.next"));
        add(card, EditorView.PREVIOUS, Messages.text("editor.shortcut.previous"));
        for (Verdict v : Verdict.values()) {
            add(card, EditorView.VERDICT_KEYS.get(v), VerdictWords.label(v));
        }
        add(card, EditorView.SUBMIT, Messages.text("editor.shortcut.submit"));
        add(card, EditorView.UNDO, Messages.text("editor.shortcut.undo"));
        add(card, EditorView.RELEASE, Messages.text("editor.shortcut.release"));
        add(card, EditorView.SHOW_NEWER, Messages.text("editor.shortcut.showNewer"));
        add(card, EditorView.KEEP, Messages.text("editor.shortcut.keep"));
        add(card, EditorSettingsMenu.LARGER, Messages.text("editor.shortcut.larger"));
        add(card, EditorSettingsMenu.SMALLER, Messages.text("editor.shortcut.smaller"));
        add(card, EditorSettingsMenu.NORMAL, Messages.text("editor.shortcut.normal"));
        add(card, EditorView.HELP, Messages.text("editor.shortcut.help"));
        getChildren().add(card);
        setId("help-overlay");
        getStyleClass().add("help-overlay");
        setVisible(false);
        setOnMouseClicked(e -> setVisible(false));
    }

    private static void add(VBox card, KeyCombination keys, String what) {
        Label k = new Label(keys.getDisplayText());
        k.getStyleClass().add("key");
        k.setMinWidth(130);
        card.getChildren().add(new HBox(12, k, new Label(what)));
    }

    void toggle() {
        setVisible(!isVisible());
    }
}
