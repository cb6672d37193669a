package org.copydesk.ui.supervisor;

import static org.copydesk.ui.supervisor.ActionControls.button;
import static org.copydesk.ui.supervisor.ActionControls.personCell;
import static org.copydesk.ui.supervisor.Tables.muted;
import static org.copydesk.ui.supervisor.Tables.textColumn;

import atlantafx.base.theme.Styles;
import java.util.List;
import javafx.beans.binding.Bindings;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.ChoiceBox;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.Separator;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import org.copydesk.review.DeadlineForecast.DueArticle;
import org.copydesk.review.Desk;
import org.copydesk.review.Editor;
import org.copydesk.ui.common.Messages;
import org.kordamp.ikonli.feather.Feather;
import org.kordamp.ikonli.javafx.FontIcon;

/**
 * The "Deadlines" page: the forecast's line on top, each stage's pace under it, the articles due
 * in the coming hours earliest first (late and at-risk rows say so in words and carry a mark, not
 * only a colour), and beside them what the supervisor can do with the chosen one. Binds to
 * {@link DeadlinesViewModel} and {@link DeadlineActionsViewModel}.
 */
final class DeadlinesPage extends VBox {

    DeadlinesPage(DeadlinesViewModel model, DeadlineActionsViewModel actions) {
        super(10);
        ChoiceBox<Desk> desk = DeskPicker.of("deadlines-desk", model.desks(), model.deskProperty());
        Label line = new Label();
        line.setId("deadlines-line");
        line.setWrapText(true);
        line.getStyleClass().add(Styles.TEXT_BOLD);
        line.setGraphic(new FontIcon(Feather.CLOCK));
        line.textProperty().bind(model.lineProperty());
        HBox top = new HBox(10, new Label(Messages.text("dashboard.queue.desk")), desk, line);
        top.setAlignment(Pos.CENTER_LEFT);
        HBox.setHgrow(line, Priority.ALWAYS);
        Label pace = muted("");
        pace.setId("deadlines-pace");
        pace.setWrapText(true);
        pace.getStyleClass().add(Styles.TEXT_SMALL);
        pace.textProperty().bind(model.paceProperty());

        TableView<DueArticle> table = new TableView<>(model.items());
        table.setId("deadlines");
        table.setAccessibleText(Messages.text("dashboard.deadlines.table.accessible"));
        table.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        table.setPlaceholder(muted(Messages.text("dashboard.deadlines.empty")));
        table.getColumns().setAll(List.of(
                textColumn(Messages.text("dashboard.deadlines.due.column"), 60, model::dueOf),
                textColumn(Messages.text("dashboard.deadlines.left.column"), 130, model::leftOf),
                forecastColumn(model),
                textColumn(Messages.text("dashboard.deadlines.expected.column"), 100, model::expectedOf),
                textColumn(Messages.text("dashboard.holders.article.column"), 210, DueArticle::title),
                textColumn(Messages.text("dashboard.deadlines.stage.column"), 80, a -> a.stage() == null ? "" : a.stage()),
                textColumn(Messages.text("dashboard.deadlines.holder.column"), 110, model::holderOf)));
        table.getColumns().forEach(c -> c.setSortable(false)); // earliest due first, always
        // the times never cut to "1…" (at 150 % the window is narrow): the article's title gives way instead
        table.getColumns().get(0).setMinWidth(60);
        table.getColumns().get(3).setMinWidth(90);
        table.setRowFactory(t -> new TableRow<>() {
            @Override
            protected void updateItem(DueArticle a, boolean empty) {
                super.updateItem(a, empty);
                getStyleClass().removeAll("deadline-late", "deadline-at-risk");
                if (!empty && a != null && a.late()) {
                    getStyleClass().add("deadline-late");
                } else if (!empty && a != null && a.atRisk()) {
                    getStyleClass().add("deadline-at-risk");
                }
            }
        });
        Tables.selectionFollows(table, model.selectedProperty());
        HBox.setHgrow(table, Priority.ALWAYS);
        ScrollPane side = new ScrollPane(actionsPanel(model, actions));
        side.setFitToWidth(true);
        side.setHbarPolicy(ScrollPane.ScrollBarPolicy.NEVER);
        side.setMinWidth(Region.USE_PREF_SIZE);
        side.getStyleClass().add("edge-to-edge");
        HBox body = new HBox(10, table, side);
        VBox.setVgrow(body, Priority.ALWAYS);
        model.pointerOverProperty().bind(body.hoverProperty());
        getChildren().addAll(top, pace, body, Tables.inlineError("deadlines-error", model.loadErrorProperty()));
        Tables.padded(this);
    }

    /** The forecast in words, with a mark a reader sees without colour: a warning triangle at risk, a stop sign late. */
    private static TableColumn<DueArticle, DueArticle> forecastColumn(DeadlinesViewModel model) {
        TableColumn<DueArticle, DueArticle> c = new TableColumn<>(Messages.text("dashboard.deadlines.forecast.column"));
        c.setPrefWidth(130);
        c.setCellValueFactory(f -> new ReadOnlyObjectWrapper<>(f.getValue()));
        c.setCellFactory(col -> new TableCell<>() {
            @Override
            protected void updateItem(DueArticle a, boolean empty) {
                super.updateItem(a, empty);
                setText(empty || a == null ? null : model.forecastOf(a));
                setGraphic(empty || a == null || !(a.late() || a.atRisk()) ? null
                        : new FontIcon(a.late() ? Feather.ALERT_OCTAGON : Feather.ALERT_TRIANGLE));
            }
        });
        return c;
    }

    private static VBox actionsPanel(DeadlinesViewModel model, DeadlineActionsViewModel actions) {
        Label header = new Label(Messages.text("dashboard.queue.actions.title"));
        header.getStyleClass().add(Styles.TITLE_4);
        Label what = new Label();
        what.setId("deadlines-selected");
        what.setWrapText(true);
        what.textProperty().bind(Bindings.createStringBinding(() -> {
            DueArticle a = model.selectedProperty().get();
            return a == null ? Messages.text("dashboard.deadlines.actions.hint")
                    : Messages.text("dashboard.queue.actions.selected", a.title());
        }, model.selectedProperty()));
        TextField reason = new TextField();
        reason.setId("deadlines-reason");
        reason.setPromptText(Messages.text("dashboard.queue.reason.prompt"));
        reason.setAccessibleText(Messages.text("dashboard.queue.reason.prompt"));
        reason.textProperty().bindBidirectional(actions.reasonProperty());
        Button front = button("deadlines-front", "dashboard.queue.front", Feather.CHEVRONS_UP, "dashboard.queue.front.tooltip");
        front.disableProperty().bind(actions.canMoveToFront().not());
        front.setOnAction(e -> actions.moveToFront());
        ComboBox<Editor> to = new ComboBox<>(actions.candidates());
        to.setId("deadlines-give-to");
        to.setAccessibleText(Messages.text("dashboard.queue.giveTo.prompt"));
        to.setPromptText(Messages.text("dashboard.queue.giveTo.prompt"));
        to.setMaxWidth(Double.MAX_VALUE);
        to.valueProperty().bindBidirectional(actions.giveToProperty());
        to.setCellFactory(v -> personCell(actions::candidateLabel, null));
        to.setButtonCell(personCell(actions::candidateLabel, to.getPromptText()));
        Button give = button("deadlines-give", "dashboard.queue.give", Feather.USER_PLUS, "dashboard.queue.give.tooltip");
        give.disableProperty().bind(actions.canGive().not());
        give.setOnAction(e -> actions.giveSelected());
        TextField newDue = new TextField();
        newDue.setId("deadlines-new-due");
        newDue.setPromptText(Messages.text("dashboard.deadlines.extend.prompt"));
        newDue.setAccessibleText(Messages.text("dashboard.deadlines.extend.prompt"));
        newDue.textProperty().bindBidirectional(actions.newDueProperty());
        Button extend = button("deadlines-extend", "dashboard.deadlines.extend", Feather.CALENDAR, "dashboard.deadlines.extend.tooltip");
        extend.disableProperty().bind(actions.canExtend().not());
        extend.setOnAction(e -> actions.extend());
        AskFirstBox question = new AskFirstBox(actions.question(), new String[] {"deadlines-question", "deadlines-confirm",
            "deadlines-cancel"}, "action-question", Feather.HELP_CIRCLE, Styles.DANGER);
        VBox panel = new VBox(8, header, what, reason, question, Tables.inlineError("deadlines-action-error", actions.errorProperty()),
                new Separator(), front,
                new Separator(), new Label(Messages.text("dashboard.queue.give.section")), to, give,
                new Separator(), wrapped(Messages.text("dashboard.deadlines.extend.section")), newDue, extend);
        panel.setId("deadlines-actions");
        panel.setPadding(new Insets(12));
        panel.setPrefWidth(260);
        panel.setMinWidth(240);
        panel.getStyleClass().add("review-panel");
        return panel;
    }

    private static Label wrapped(String text) {
        Label l = new Label(text);
        l.setWrapText(true);
        return l;
    }


}
