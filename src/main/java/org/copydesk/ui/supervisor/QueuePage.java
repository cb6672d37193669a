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
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import org.copydesk.review.Desk;
import org.copydesk.review.DeskQueue.Item;
import org.copydesk.ui.common.Messages;
import org.controlsfx.control.textfield.TextFields;
import org.kordamp.ikonli.feather.Feather;
import org.kordamp.ikonli.javafx.FontIcon;

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
        // ControlsFX's search field, as on "Who holds what": a clear button appears once something is typed
        TextField search = TextFields.createClearableTextField();
        search.setId("queue-search");
        search.setPromptText(Messages.text("dashboard.queue.search.prompt"));
        search.setAccessibleText(Messages.text("dashboard.queue.search.accessible"));
        search.setPrefColumnCount(22);
        search.textProperty().bindBidirectional(model.searchProperty());
        HBox top = new HBox(10, new Label(Messages.text("dashboard.queue.desk")), desk, new FontIcon(Feather.SEARCH), search, summary,
                new Spacer(), order);
        top.setAlignment(Pos.CENTER_LEFT);

        TableView<Item> table = new TableView<>(model.items());
        table.setId("queue");
        table.setAccessibleText(Messages.text("dashboard.queue.table.accessible"));
        table.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        table.setPlaceholder(muted(Messages.text("dashboard.queue.empty")));
        TableColumn<Item, String> deskColumn = textColumn(Messages.text("dashboard.queue.desk.column"), 110, i -> model.deskName(i.desk()));
        deskColumn.setVisible(model.allDesksShown());
        model.deskProperty().addListener((o, a, d) -> deskColumn.setVisible(model.allDesksShown()));
        table.getColumns().setAll(List.of(
                textColumn(Messages.text("dashboard.queue.place.column"), 190, model::placeOf),
                deskColumn,
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
