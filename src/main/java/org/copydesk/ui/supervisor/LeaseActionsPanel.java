package org.copydesk.ui.supervisor;

import static org.copydesk.ui.supervisor.Tables.muted;

import atlantafx.base.theme.Styles;
import java.time.Duration;
import java.util.List;
import javafx.beans.binding.Bindings;
import javafx.collections.ListChangeListener;
import javafx.geometry.Insets;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.Separator;
import javafx.scene.control.TextField;
import javafx.scene.control.Tooltip;
import javafx.scene.input.KeyCode;
import javafx.scene.layout.HBox;
import javafx.scene.layout.VBox;
import org.copydesk.review.Editor;
import org.kordamp.ikonli.feather.Feather;
import org.kordamp.ikonli.javafx.FontIcon;

/**
 * Beside the holders table: what is selected, and force release, reassign and extend for it (one
 * lease or many). The question before a force release or reassignment, errors and what happened
 * to each lease all appear here, next to the buttons. Binds to {@link LeaseActionsViewModel}.
 */
final class LeaseActionsPanel extends VBox {

    /** Outcomes listed one per line before "and N more". */
    private static final int OUTCOMES_SHOWN = 6;

    private final LeaseActionsViewModel model;
    private final HoldersViewModel holders;

    LeaseActionsPanel(LeaseActionsViewModel model, HoldersViewModel holders) {
        super(8);
        this.model = model;
        this.holders = holders;
        Label header = new Label("Selected lease");
        header.getStyleClass().add(Styles.TITLE_4);
        header.textProperty().bind(Bindings.createStringBinding(() -> holders.selection().size() > 1
                ? "Selected leases" : "Selected lease", holders.selection()));
        Label what = new Label();
        what.setId("selected-lease");
        what.setWrapText(true);
        what.textProperty().bind(Bindings.createStringBinding(this::describeSelection, holders.selection()));
        getChildren().addAll(header, what, createQuestion(), Tables.inlineError("action-error", model.errorProperty()),
                createOutcomes(), new Separator());
        getChildren().addAll(createForceRelease());
        getChildren().add(new Separator());
        getChildren().addAll(createReassign());
        getChildren().add(new Separator());
        getChildren().addAll(createExtend());
        setId("lease-actions");
        setPadding(new Insets(12));
        setPrefWidth(260);
        setMinWidth(240);
        getStyleClass().add("review-panel");
    }

    private String describeSelection() {
        List<HolderRow> rows = holders.selection();
        if (rows.isEmpty()) {
            return "Select a row to act on it; Ctrl or Shift and click select several.";
        }
        if (rows.size() == 1) {
            return "\u201c" + rows.get(0).title() + "\u201d\nheld by " + rows.get(0).editorName();
        }
        long people = rows.stream().map(HolderRow::editorId).distinct().count();
        return rows.size() + " articles, held by " + (people == 1 ? rows.get(0).editorName() : people + " people");
    }

    /** The question before a force release or reassignment; Enter answers yes, Escape no. */
    private VBox createQuestion() {
        Label question = new Label();
        question.setId("action-question");
        question.setWrapText(true);
        question.setGraphic(new FontIcon(Feather.HELP_CIRCLE));
        question.textProperty().bind(model.questionProperty());
        Button yes = new Button();
        yes.setId("confirm-action");
        yes.textProperty().bind(model.answerProperty());
        yes.accessibleTextProperty().bind(Bindings.when(model.answerProperty().isEmpty()).then("Yes")
                .otherwise(model.answerProperty()));
        yes.getStyleClass().addAll(Styles.SMALL, Styles.DANGER);
        yes.setOnAction(e -> model.confirm());
        Button no = new Button("Cancel");
        no.setId("cancel-action");
        no.getStyleClass().addAll(Styles.SMALL, Styles.FLAT);
        no.setOnAction(e -> model.cancelQuestion());
        VBox box = new VBox(6, question, new HBox(6, yes, no));
        box.getStyleClass().add("action-question");
        box.visibleProperty().bind(model.questionProperty().isNotEmpty());
        box.managedProperty().bind(box.visibleProperty());
        box.setOnKeyPressed(e -> {
            if (e.getCode() == KeyCode.ESCAPE) {
                model.cancelQuestion();
                e.consume();
            }
        });
        model.questionProperty().addListener((o, a, q) -> {
            if (!q.isEmpty()) {
                yes.requestFocus(); // the keyboard is where the question is
            }
        });
        return box;
    }

    private VBox createOutcomes() {
        VBox list = new VBox(2);
        list.setId("action-outcomes");
        list.getStyleClass().add("action-outcomes");
        model.outcomes().addListener((ListChangeListener<LeaseBatch.Outcome>) c -> {
            list.getChildren().clear();
            List<LeaseBatch.Outcome> all = List.copyOf(model.outcomes());
            if (all.size() < 2) {
                return; // one lease: the notice says it
            }
            for (LeaseBatch.Outcome o : all.subList(0, Math.min(OUTCOMES_SHOWN, all.size()))) {
                Label line = new Label(o.words());
                line.setWrapText(true);
                line.getStyleClass().addAll(Styles.TEXT_SMALL, "outcome-" + o.result().name().toLowerCase(java.util.Locale.ROOT));
                line.setGraphic(new FontIcon(o.result() == LeaseBatch.Result.DONE ? Feather.CHECK : Feather.MINUS_CIRCLE));
                list.getChildren().add(line);
            }
            if (all.size() > OUTCOMES_SHOWN) {
                list.getChildren().add(muted("and " + (all.size() - OUTCOMES_SHOWN) + " more (see the audit)"));
            }
        });
        list.visibleProperty().bind(Bindings.isNotEmpty(list.getChildren()));
        list.managedProperty().bind(list.visibleProperty());
        return list;
    }

    private List<javafx.scene.Node> createForceRelease() {
        TextField reason = new TextField();
        reason.setId("reason");
        reason.setPromptText("Reason (the editor sees it)");
        reason.setAccessibleText("Reason, shown to the holder");
        reason.textProperty().bindBidirectional(model.reasonProperty());
        Button release = new Button("Force release", new FontIcon(Feather.X_OCTAGON));
        release.setId("force-release");
        release.getStyleClass().add(Styles.DANGER);
        release.setMaxWidth(Double.MAX_VALUE);
        release.setTooltip(new Tooltip("End the lease now: the article goes back to the queue and the editor is told why"));
        release.disableProperty().bind(model.canForceReleaseProperty().not());
        release.setOnAction(e -> model.forceReleaseSelected());
        return List.of(new Label("Take it back"), reason, release);
    }

    private List<javafx.scene.Node> createReassign() {
        ComboBox<Editor> to = new ComboBox<>(model.reassignCandidates());
        to.setId("reassign-to");
        to.setAccessibleText("Reassign to");
        to.setPlaceholder(muted("Nobody else works on this article's desk."));
        to.setPromptText("Reassign to\u2026");
        to.setMaxWidth(Double.MAX_VALUE);
        to.valueProperty().bindBidirectional(model.reassignToProperty());
        to.setCellFactory(v -> editorCell(null));
        // JavaFX drops the prompt of a combo box with its own button cell once its value was cleared
        to.setButtonCell(editorCell(to.getPromptText()));
        Button reassign = new Button("Reassign", new FontIcon(Feather.SHUFFLE));
        reassign.setId("reassign");
        reassign.setMaxWidth(Double.MAX_VALUE);
        reassign.setTooltip(new Tooltip("Give the article to this editor under a new lease (only editors of its desk)"));
        reassign.disableProperty().bind(model.canReassignProperty().not());
        reassign.setOnAction(e -> model.reassignSelected());

        Label warning = new Label();
        warning.setId("capacity-warning");
        warning.setWrapText(true);
        warning.setGraphic(new FontIcon(Feather.ALERT_TRIANGLE));
        warning.textProperty().bind(model.capacityWarningProperty());
        Button anyway = new Button("Reassign anyway");
        anyway.setId("reassign-anyway");
        anyway.getStyleClass().addAll(Styles.SMALL, Styles.WARNING);
        anyway.setOnAction(e -> model.confirmOverCapacity());
        Button cancel = new Button("Cancel");
        cancel.getStyleClass().addAll(Styles.SMALL, Styles.FLAT);
        cancel.setOnAction(e -> model.cancelOverCapacity());
        VBox warningBox = new VBox(6, warning, new HBox(6, anyway, cancel));
        warningBox.getStyleClass().add("capacity-warning");
        warningBox.visibleProperty().bind(model.capacityWarningProperty().isNotEmpty());
        warningBox.managedProperty().bind(warningBox.visibleProperty());
        return List.of(new Label("Give it to someone else"), to, reassign, warningBox);
    }

    private List<javafx.scene.Node> createExtend() {
        Button extend15 = new Button("+15 min", new FontIcon(Feather.CLOCK));
        extend15.setId("extend-15");
        extend15.setAccessibleText("Give 15 minutes more");
        extend15.setOnAction(e -> model.extendSelected(Duration.ofMinutes(15)));
        extend15.disableProperty().bind(model.canActProperty().not());
        Button extend60 = new Button("+1 h");
        extend60.setId("extend-60");
        extend60.setAccessibleText("Give one hour more");
        extend60.setOnAction(e -> model.extendSelected(Duration.ofHours(1)));
        extend60.disableProperty().bind(model.canActProperty().not());
        Label extendNote = new Label("Extending never passes the desk's maximum hold.");
        extendNote.setWrapText(true);
        extendNote.getStyleClass().addAll(Styles.TEXT_MUTED, Styles.TEXT_SMALL);
        return List.of(new Label("Give more time"), new HBox(6, extend15, extend60), extendNote);
    }

    private static ListCell<Editor> editorCell(String whenEmpty) {
        return new ListCell<>() {
            @Override
            protected void updateItem(Editor e, boolean empty) {
                super.updateItem(e, empty);
                setText(empty || e == null ? whenEmpty : e.displayName() + " (" + e.id() + ")");
            }
        };
    }
}
