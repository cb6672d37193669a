package org.copydesk.ui.editor;

import atlantafx.base.theme.Styles;
import java.util.function.Consumer;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.input.KeyCode;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Region;
import javafx.scene.layout.StackPane;
import javafx.scene.layout.VBox;
import org.copydesk.ui.common.Messages;

/**
 * "Give back your 4 articles?" — asked in the window when the editor closes it or signs out while
 * holding articles. Giving back is the default (Enter): work someone walks away from should not
 * sit locked for half an hour. Keeping them leaves the leases to run out, as after a crash; the
 * drafts are kept either way. Esc or Cancel stays.
 */
final class LeaveQuestion extends StackPane {

    private final Label title = new Label();
    private final Label status = new Label();
    private final Button giveBack = new Button(Messages.text("editor.leave.giveBack"));
    private final Button keep = new Button(Messages.text("editor.leave.keepThem"));
    private final Button cancel = new Button(Messages.text("editor.leave.cancel"));

    LeaveQuestion() {
        setId("leave-question");
        getStyleClass().add("help-overlay");
        title.getStyleClass().add(Styles.TITLE_3);
        title.setId("leave-title");
        Label text = new Label(Messages.text("editor.leave.explanation"));
        text.setWrapText(true);
        status.getStyleClass().add(Styles.TEXT_MUTED);
        giveBack.setId("leave-give-back");
        giveBack.getStyleClass().add(Styles.ACCENT);
        giveBack.setDefaultButton(true);
        keep.setId("leave-keep");
        cancel.setId("leave-cancel");
        cancel.setCancelButton(true);
        HBox buttons = new HBox(8, cancel, keep, giveBack);
        buttons.setAlignment(Pos.CENTER_RIGHT);
        VBox card = new VBox(12, title, text, status, buttons);
        card.getStyleClass().add("help-card");
        card.setMaxSize(460, Region.USE_PREF_SIZE);
        getChildren().add(card);
        setVisible(false);
        cancel.setOnAction(e -> setVisible(false));
        setOnKeyPressed(e -> {
            if (e.getCode() == KeyCode.ESCAPE) {
                setVisible(false);
                e.consume();
            }
        });
    }

    /**
     * @param giveBackThenLeave gives the articles back and then leaves (it calls back when done)
     * @param leave             leaves without giving back
     */
    void ask(int count, Consumer<Runnable> giveBackThenLeave, Runnable leave) {
        title.setText(Messages.text("editor.leave.question", count));
        status.setText("");
        setButtonsDisabled(false);
        giveBack.setOnAction(e -> {
            status.setText(Messages.text("editor.leave.givingBack"));
            setButtonsDisabled(true);
            giveBackThenLeave.accept(() -> setVisible(false));
        });
        keep.setOnAction(e -> {
            setVisible(false);
            leave.run();
        });
        setVisible(true);
        giveBack.requestFocus();
    }

    private void setButtonsDisabled(boolean disabled) {
        giveBack.setDisable(disabled);
        keep.setDisable(disabled);
        cancel.setDisable(disabled);
    }
}
