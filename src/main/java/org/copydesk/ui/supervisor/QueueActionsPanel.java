package org.copydesk.ui.supervisor;

import static org.copydesk.ui.supervisor.ActionControls.button;
import static org.copydesk.ui.supervisor.ActionControls.personCell;

import atlantafx.base.theme.Styles;
import javafx.beans.binding.Bindings;
import javafx.geometry.Insets;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.Separator;
import javafx.scene.control.TextField;
import javafx.scene.layout.VBox;
import org.copydesk.review.DeskQueue.Item;
import org.copydesk.review.Editor;
import org.copydesk.ui.common.Messages;
import org.kordamp.ikonli.feather.Feather;

/**
 * Beside the Queue: the chosen article and what the supervisor can do with it (give it to someone,
 * move it to the front, hold it or release the hold, let the editor it was kept from have it
 * again), the reason that goes into the history, the questions asked first and what went wrong.
 * Binds to {@link QueueActionsViewModel}.
 */
final class QueueActionsPanel extends VBox {

    QueueActionsPanel(QueueActionsViewModel model) {
        super(8);
        Label header = new Label(Messages.text("dashboard.queue.actions.title"));
        header.getStyleClass().add(Styles.TITLE_4);
        Label what = new Label();
        what.setId("queue-selected");
        what.setWrapText(true);
        what.textProperty().bind(Bindings.createStringBinding(() -> {
            Item i = model.selectedProperty().get();
            return i == null ? Messages.text("dashboard.queue.actions.hint") : Messages.text("dashboard.queue.actions.selected", i.title());
        }, model.selectedProperty()));
        TextField reason = new TextField();
        reason.setId("queue-reason");
        reason.setPromptText(Messages.text("dashboard.queue.reason.prompt"));
        reason.setAccessibleText(Messages.text("dashboard.queue.reason.prompt"));
        reason.textProperty().bindBidirectional(model.reasonProperty());

        ComboBox<Editor> to = new ComboBox<>(model.candidates());
        to.setId("queue-give-to");
        to.setAccessibleText(Messages.text("dashboard.queue.giveTo.prompt"));
        to.setPromptText(Messages.text("dashboard.queue.giveTo.prompt"));
        to.setMaxWidth(Double.MAX_VALUE);
        to.valueProperty().bindBidirectional(model.giveToProperty());
        to.setCellFactory(v -> personCell(model::candidateLabel, null));
        to.setButtonCell(personCell(model::candidateLabel, to.getPromptText())); // keeps the prompt once the value is cleared
        Button give = button("queue-give", "dashboard.queue.give", Feather.USER_PLUS, "dashboard.queue.give.tooltip");
        give.disableProperty().bind(model.canGiveProperty().not());
        give.setOnAction(e -> model.giveSelected());
        Button front = button("queue-front", "dashboard.queue.front", Feather.CHEVRONS_UP, "dashboard.queue.front.tooltip");
        front.disableProperty().bind(model.canMoveToFrontProperty().not());
        front.setOnAction(e -> model.moveSelectedToFront());
        Button hold = button("queue-hold", "dashboard.queue.hold", Feather.PAUSE, "dashboard.queue.hold.tooltip");
        hold.disableProperty().bind(model.canHoldProperty().not());
        hold.setOnAction(e -> model.holdSelected());
        Button release = button("queue-release-hold", "dashboard.queue.releaseHold", Feather.PLAY, "dashboard.queue.releaseHold.tooltip");
        release.disableProperty().bind(model.canReleaseHoldProperty().not());
        release.setOnAction(e -> model.releaseSelectedHold());
        Button letAgain = button("queue-let-again", "dashboard.queue.letAgain", Feather.USER_CHECK, "dashboard.queue.letAgain.tooltip");
        letAgain.disableProperty().bind(model.canLetAgainProperty().not());
        letAgain.textProperty().bind(Bindings.createStringBinding(() -> {
            Item i = model.selectedProperty().get();
            return i == null || i.keptFrom() == null ? Messages.text("dashboard.queue.letAgain")
                    : Messages.text("dashboard.queue.letAgainNamed", model.keptFromName(i));
        }, model.selectedProperty()));
        letAgain.setOnAction(e -> model.letKeptEditorHaveIt());

        AskFirstBox question = new AskFirstBox(model.question(), new String[] {"queue-question", "queue-confirm", "queue-cancel"},
                "action-question", Feather.HELP_CIRCLE, Styles.DANGER);
        AskFirstBox capacity = new AskFirstBox(model.overCapacity(),
                new String[] {"queue-capacity-warning", "queue-give-anyway", "queue-capacity-cancel"}, "capacity-warning",
                Feather.ALERT_TRIANGLE, Styles.WARNING);
        getChildren().addAll(header, what, reason, question, capacity, Tables.inlineError("queue-action-error", model.errorProperty()),
                new Separator(), new Label(Messages.text("dashboard.queue.give.section")), to, give,
                new Separator(), new Label(Messages.text("dashboard.queue.order.section")), front, hold, release,
                new Separator(), letAgain);
        setId("queue-actions");
        setPadding(new Insets(12));
        setPrefWidth(280);
        setMinWidth(260);
        getStyleClass().add("review-panel");
    }


}
