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
 * The desks and stages the editor takes work from, chosen again in the middle of the day (the
 * settings menu): read from the database ticked as they are, kept there with Keep (Enter); Esc or
 * Cancel changes nothing. What the editor holds stays theirs; new work follows the choice.
 */
final class WorkChoiceOverlay extends StackPane {

    private final WorkChoiceModel model;
    private final VBox content = new VBox();
    private final Button keep = new Button(Messages.text("editor.workChoice.keep"));

    WorkChoiceOverlay(WorkChoiceModel model, Consumer<String> kept) {
        this.model = model;
        setId("work-choice-overlay");
        getStyleClass().add("help-overlay");
        Label title = new Label(Messages.text("editor.workChoice.title"));
        title.getStyleClass().add(Styles.TITLE_3);
        keep.setId("work-choice-keep");
        keep.getStyleClass().add(Styles.ACCENT);
        keep.setDefaultButton(true);
        keep.disableProperty().bind(model.busyProperty());
        Button cancel = new Button(Messages.text("editor.workChoice.cancel"));
        cancel.setId("work-choice-cancel");
        cancel.setCancelButton(true);
        HBox buttons = new HBox(8, cancel, keep);
        buttons.setAlignment(Pos.CENTER_RIGHT);
        VBox card = new VBox(12, title, content, buttons);
        card.getStyleClass().add("help-card");
        card.setMaxSize(460, Region.USE_PREF_SIZE);
        getChildren().add(card);
        setVisible(false);
        cancel.setOnAction(e -> setVisible(false));
        keep.setOnAction(e -> keep(kept));
        setOnKeyPressed(e -> {
            if (e.getCode() == KeyCode.ESCAPE) {
                setVisible(false);
                e.consume();
            }
        });
    }

    private void keep(Consumer<String> kept) {
        model.save(desks -> {
            setVisible(false);
            kept.accept(model.summary());
        });
    }

    /** Reads the choice as it is now and shows it, the first tick focused. */
    void open() {
        content.getChildren().clear();
        setVisible(true);
        model.load(read -> {
            WorkChoicePane pane = new WorkChoicePane(model, keep::fire);
            content.getChildren().setAll(pane);
            if (pane.first() != null) {
                pane.first().requestFocus();
            } else {
                keep.requestFocus();
            }
        });
    }
}
