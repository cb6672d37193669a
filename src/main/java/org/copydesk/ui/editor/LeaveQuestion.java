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
 *
 * <p>When the same person is signed in in another window on this computer, that window works on
 * the same articles: nothing is offered to give back, the question says so, and closing keeps them
 * (the default).
 */
final class LeaveQuestion extends StackPane {

    private final Label title = new Label();
    private final Label text = new Label();
    private final Label status = new Label();
    private final Button giveBack = new Button(Messages.text("editor.leave.giveBack"));
    private final Button keep = new Button(Messages.text("editor.leave.keepThem"));
    private final Button cancel = new Button(Messages.text("editor.leave.cancel"));

    LeaveQuestion() {
        setId("leave-question");
        getStyleClass().add("help-overlay");
        title.getStyleClass().add(Styles.TITLE_3);
        title.setId("leave-title");
        text.setId("leave-explanation");
        text.setWrapText(true);
        status.getStyleClass().add(Styles.TEXT_MUTED);
        status.managedProperty().bind(status.textProperty().isNotEmpty());
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
        text.setText(Messages.text("editor.leave.explanation"));
        keep.setText(Messages.text("editor.leave.keepThem"));
        showGiveBack(true);
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

    /**
     * The same person works in another window on this computer: closing this one keeps the
     * articles (the default), since the other window is working on them.
     *
     * @param leave leaves without giving back
     */
    void askShared(int count, Runnable leave) {
        title.setText(Messages.text("editor.leave.sharedQuestion"));
        text.setText(Messages.text("editor.leave.sharedExplanation", count));
        keep.setText(Messages.text("editor.leave.closeKeeping"));
        showGiveBack(false);
        status.setText("");
        setButtonsDisabled(false);
        keep.setOnAction(e -> {
            setVisible(false);
            leave.run();
        });
        setVisible(true);
        keep.requestFocus();
    }

    private void showGiveBack(boolean offered) {
        giveBack.setVisible(offered);
        giveBack.setManaged(offered);
        giveBack.setDefaultButton(offered);
        keep.setDefaultButton(!offered);
        keep.getStyleClass().remove(Styles.ACCENT);
        if (!offered) {
            keep.getStyleClass().add(Styles.ACCENT);
        }
    }

    private void setButtonsDisabled(boolean disabled) {
        giveBack.setDisable(disabled);
        keep.setDisable(disabled);
        cancel.setDisable(disabled);
    }
}
