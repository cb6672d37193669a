package org.copydesk.ui.supervisor;

import static org.copydesk.ui.supervisor.Tables.muted;
import static org.copydesk.ui.supervisor.Tables.textColumn;

import atlantafx.base.theme.Styles;
import java.util.List;
import java.util.function.ToIntFunction;
import javafx.beans.binding.Bindings;
import javafx.css.PseudoClass;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.TextArea;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import org.copydesk.review.outcomes.RelayState;
import org.copydesk.ui.common.Messages;
import org.kordamp.ikonli.feather.Feather;
import org.kordamp.ikonli.javafx.FontIcon;

/**
 * The "Relay" page: delivered, waiting and failed counts, the relay at work, the undelivered
 * outcomes (failed ones marked) with the receiver's last answer in full under the table, and the
 * two retry buttons with the database's refusal beside them. Binds to {@link RelayViewModel}.
 */
final class RelayPage extends VBox {

    static final PseudoClass FAILED = PseudoClass.getPseudoClass("failed");

    RelayPage(RelayViewModel model) {
        super(10);
        HBox counts = new HBox(24,
                count("relay-delivered", Messages.text("dashboard.relay.delivered.count"), model, RelayState.Counts::delivered),
                count("relay-waiting", Messages.text("dashboard.relay.waiting.count"), model, RelayState.Counts::waiting),
                count("relay-failed", Messages.text("dashboard.relay.failed.count"), model, RelayState.Counts::failed));
        Label relayTitle = new Label(Messages.text("dashboard.relay.running.label"));
        relayTitle.getStyleClass().add(Styles.TEXT_BOLD);
        Label relay = new Label();
        relay.setId("relay-running");
        relay.setWrapText(true);
        relay.textProperty().bind(model.runningRelayProperty());
        HBox running = new HBox(8, relayTitle, relay);
        running.setAlignment(Pos.BASELINE_LEFT);

        TableView<RelayViewModel.Row> table = new TableView<>();
        table.setId("relay-undelivered");
        table.setItems(model.rows());
        table.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        TableColumn<RelayViewModel.Row, String> state =
                textColumn(Messages.text("dashboard.relay.state.column"), 80, RelayViewModel.Row::state);
        state.setCellFactory(c -> new StateCell());
        table.getColumns().setAll(List.of(
                textColumn(Messages.text("dashboard.relay.cursor.column"), 70, r -> Long.toString(r.cursor())),
                state,
                textColumn(Messages.text("dashboard.relay.outcome.column"), 110, RelayViewModel.Row::outcome),
                textColumn(Messages.text("dashboard.relay.article.column"), 230, RelayViewModel.Row::article),
                textColumn(Messages.text("dashboard.relay.desk.column"), 90, RelayViewModel.Row::desk),
                textColumn(Messages.text("dashboard.relay.attempts.column"), 85, r -> Integer.toString(r.attempts())),
                textColumn(Messages.text("dashboard.relay.lastAttempt.column"), 150, RelayViewModel.Row::lastAttempt),
                textColumn(Messages.text("dashboard.relay.lastAnswer.column"), 190, r -> r.lastAnswer().replace('\n', ' ')),
                textColumn(Messages.text("dashboard.relay.nextAttempt.column"), 150, RelayViewModel.Row::nextAttempt)));
        table.setPlaceholder(muted(Messages.text("dashboard.relay.empty")));
        table.getSelectionModel().selectedItemProperty().addListener((o, a, r) -> model.selectedProperty().set(r));
        model.selectedProperty().addListener((o, a, r) -> {
            if (r == null) {
                table.getSelectionModel().clearSelection();
            } else if (table.getSelectionModel().getSelectedItem() != r) {
                table.getSelectionModel().select(r);
            }
        });
        VBox.setVgrow(table, Priority.ALWAYS);

        TextArea answer = new TextArea();
        answer.setId("relay-answer");
        answer.setEditable(false);
        answer.setWrapText(true);
        answer.setPrefRowCount(3); // an answer is at most 1,000 characters
        answer.setPromptText(Messages.text("dashboard.relay.answer.prompt"));
        answer.textProperty().bind(model.selectedAnswer());

        Button retry = new Button(Messages.text("dashboard.relay.retrySelected"), new FontIcon(Feather.ROTATE_CW));
        retry.setId("relay-retry-selected");
        retry.getStyleClass().add(Styles.ACCENT);
        retry.disableProperty().bind(model.canRetrySelected().not());
        retry.setOnAction(e -> model.retrySelected());
        Button retryAll = new Button(Messages.text("dashboard.relay.retryAllFailed"), new FontIcon(Feather.REPEAT));
        retryAll.setId("relay-retry-all");
        retryAll.disableProperty().bind(model.canRetryAll().not());
        retryAll.setOnAction(e -> model.retryAllFailed());
        Label refusal = Tables.inlineError("relay-retry-error", model.actionErrorProperty());
        HBox actions = new HBox(8, retry, retryAll, refusal);
        actions.setAlignment(Pos.CENTER_LEFT);
        if (!model.mayRetry()) {
            actions.getChildren().add(muted(Messages.text("dashboard.relay.retryNotAllowed")));
        }

        getChildren().addAll(Tables.inlineError("relay-error", model.loadErrorProperty()), counts, running,
                sectionTitle(Messages.text("dashboard.relay.undelivered.title"),
                        Messages.text("dashboard.relay.undelivered.hint", RelayViewModel.LISTED)),
                table, actions, muted(Messages.text("dashboard.relay.answer.title")), answer);
        getStyleClass().add("relay-page");
        Tables.padded(this);
    }

    private static Node count(String id, String title, RelayViewModel model, ToIntFunction<RelayState.Counts> which) {
        Label number = new Label();
        number.setId(id);
        number.getStyleClass().addAll(Styles.TITLE_2, "relay-count");
        number.textProperty().bind(Bindings.createStringBinding(() -> Integer.toString(which.applyAsInt(model.countsProperty().get())),
                model.countsProperty()));
        if (id.equals("relay-failed")) {
            model.countsProperty().addListener((o, a, c) -> number.pseudoClassStateChanged(FAILED, c.failed() > 0));
        }
        Label label = muted(title);
        VBox box = new VBox(2, number, label);
        box.setPadding(new Insets(4, 12, 4, 0));
        return box;
    }

    private static Node sectionTitle(String title, String note) {
        Label t = new Label(title);
        t.getStyleClass().add(Styles.TITLE_4);
        Label n = muted(note);
        n.getStyleClass().add(Styles.TEXT_SMALL);
        HBox box = new HBox(12, t, n);
        box.setAlignment(Pos.BASELINE_LEFT);
        return box;
    }

    /** The state, with failed ones marked so they stand out in a long list of waiting ones. */
    private static final class StateCell extends TableCell<RelayViewModel.Row, String> {
        @Override
        protected void updateItem(String item, boolean empty) {
            super.updateItem(item, empty);
            boolean failed = !empty && "failed".equals(item);
            setText(empty ? null : item);
            setGraphic(failed ? new FontIcon(Feather.ALERT_TRIANGLE) : null);
            pseudoClassStateChanged(FAILED, failed);
        }
    }
}
