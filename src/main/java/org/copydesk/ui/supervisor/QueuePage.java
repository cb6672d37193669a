package org.copydesk.ui.supervisor;

import static org.copydesk.ui.supervisor.Tables.muted;
import static org.copydesk.ui.supervisor.Tables.textColumn;

import atlantafx.base.controls.Spacer;
import atlantafx.base.theme.Styles;
import java.util.List;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.control.ChoiceBox;
import javafx.scene.control.Label;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.TableView;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import org.copydesk.review.Desk;
import org.copydesk.review.DeskQueue.Item;
import org.copydesk.ui.common.Messages;

/**
 * The "Queue" page: a desk's queue in claim order, then what is scheduled, held or with the
 * writers, and beside it what the supervisor can do with the chosen article. Binds to
 * {@link QueueViewModel} and {@link QueueActionsViewModel}.
 */
final class QueuePage extends VBox {

    QueuePage(QueueViewModel model, Node actions) {
        super(10);
        ChoiceBox<Desk> desk = DeskPicker.of("queue-desk", model.desks(), model.deskProperty());
        Label summary = new Label();
        summary.setId("queue-summary");
        summary.getStyleClass().add(Styles.TEXT_MUTED);
        summary.setMinWidth(Region.USE_PREF_SIZE);
        summary.textProperty().bind(model.summaryProperty());
        Label order = muted(Messages.text("dashboard.queue.order"));
        order.getStyleClass().add(Styles.TEXT_SMALL);
        order.setMinWidth(0);
        HBox top = new HBox(10, new Label(Messages.text("dashboard.queue.desk")), desk, summary, new Spacer(), order);
        top.setAlignment(Pos.CENTER_LEFT);

        TableView<Item> table = new TableView<>(model.items());
        table.setId("queue");
        table.setAccessibleText(Messages.text("dashboard.queue.table.accessible"));
        table.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        table.setPlaceholder(muted(Messages.text("dashboard.queue.empty")));
        table.getColumns().setAll(List.of(
                textColumn(Messages.text("dashboard.queue.place.column"), 190, model::placeOf),
                textColumn(Messages.text("dashboard.holders.number.column"), 60, i -> Long.toString(i.id())),
                textColumn(Messages.text("dashboard.holders.article.column"), 380, Item::title),
                textColumn(Messages.text("dashboard.queue.priority.column"), 70, i -> Integer.toString(i.priority())),
                textColumn(Messages.text("dashboard.queue.notes.column"), 300, model::notesOf)));
        table.getColumns().forEach(c -> c.setSortable(false)); // the order is the claims' own
        Tables.selectionFollows(table, model.selectedProperty());
        HBox.setHgrow(table, Priority.ALWAYS);
        // the actions scroll when the window is short, so the page never grows past it
        ScrollPane side = new ScrollPane(actions);
        side.setFitToWidth(true);
        side.setHbarPolicy(ScrollPane.ScrollBarPolicy.NEVER);
        side.setMinWidth(Region.USE_PREF_SIZE);
        side.getStyleClass().add("edge-to-edge");
        HBox body = new HBox(10, table, side);
        VBox.setVgrow(body, Priority.ALWAYS);
        model.pointerOverProperty().bind(body.hoverProperty());
        getChildren().addAll(top, body, Tables.inlineError("queue-error", model.loadErrorProperty()));
        Tables.padded(this);
    }
}
