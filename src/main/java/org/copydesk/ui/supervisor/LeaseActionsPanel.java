package org.copydesk.ui.supervisor;

import static org.copydesk.ui.supervisor.ActionControls.personCell;
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
import javafx.scene.control.Separator;
import javafx.scene.control.TextField;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.HBox;
import javafx.scene.layout.VBox;
import org.copydesk.review.Editor;
import org.copydesk.ui.common.Messages;
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
        Label header = new Label(Messages.text("dashboard.actions.selectedLease"));
        header.getStyleClass().add(Styles.TITLE_4);
        header.textProperty().bind(Bindings.createStringBinding(() -> holders.selection().size() > 1
                ? Messages.text("dashboard.actions.selectedLeases") : Messages.text("dashboard.actions.selectedLease"),
                holders.selection()));
        Label what = new Label();
        what.setId("selected-lease");
        what.setWrapText(true);
        what.textProperty().bind(Bindings.createStringBinding(this::describeSelection, holders.selection()));
        TextField reason = new TextField();
        reason.setId("reason");
        reason.setPromptText(Messages.text("dashboard.actions.reason.prompt"));
        reason.setAccessibleText(Messages.text("dashboard.actions.reason.accessible"));
        reason.textProperty().bindBidirectional(model.reasonProperty());
        AskFirstBox question = new AskFirstBox(model.question(), new String[] {"action-question", "confirm-action", "cancel-action"},
                "action-question", Feather.HELP_CIRCLE, Styles.DANGER);
        // the reason is said once, above the acts it serves: the holder sees it after a force
        // release, the new holder after a reassignment
        getChildren().addAll(header, what, reason, question, Tables.inlineError("action-error", model.errorProperty()),
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
            return Messages.text("dashboard.actions.selectHint");
        }
        if (rows.size() == 1) {
            return Messages.text("dashboard.actions.selectedOne", rows.get(0).title(), rows.get(0).editorName());
        }
        long people = rows.stream().map(HolderRow::editorId).distinct().count();
        return people == 1 ? Messages.text("dashboard.actions.selectedManyOneHolder", rows.size(), rows.get(0).editorName())
                : Messages.text("dashboard.actions.selectedManyHolders", rows.size(), people);
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
                list.getChildren().add(muted(Messages.text("dashboard.actions.moreOutcomes", all.size() - OUTCOMES_SHOWN)));
            }
        });
        list.visibleProperty().bind(Bindings.isNotEmpty(list.getChildren()));
        list.managedProperty().bind(list.visibleProperty());
        return list;
    }

    private List<javafx.scene.Node> createForceRelease() {
        Button release = new Button(Messages.text("dashboard.actions.forceRelease"), new FontIcon(Feather.X_OCTAGON));
        release.setId("force-release");
        release.getStyleClass().add(Styles.DANGER);
        release.setMaxWidth(Double.MAX_VALUE);
        release.setTooltip(new Tooltip(Messages.text("dashboard.actions.forceRelease.tooltip")));
        release.disableProperty().bind(model.canForceReleaseProperty().not());
        release.setOnAction(e -> model.forceReleaseSelected());
        return List.of(new Label(Messages.text("dashboard.actions.forceRelease.section")), release);
    }

    private List<javafx.scene.Node> createReassign() {
        ComboBox<Editor> to = new ComboBox<>(model.reassignCandidates());
        to.setId("reassign-to");
        to.setAccessibleText(Messages.text("dashboard.actions.reassignTo.accessible"));
        to.setPlaceholder(muted(Messages.text("dashboard.actions.reassignTo.empty")));
        to.setPromptText(Messages.text("dashboard.actions.reassignTo.prompt"));
        to.setMaxWidth(Double.MAX_VALUE);
        to.valueProperty().bindBidirectional(model.reassignToProperty());
        to.setCellFactory(v -> personCell(model::candidateLabel, null));
        // JavaFX drops the prompt of a combo box with its own button cell once its value was cleared
        to.setButtonCell(personCell(model::candidateLabel, to.getPromptText()));
        Button reassign = new Button(Messages.text("dashboard.actions.reassign"), new FontIcon(Feather.SHUFFLE));
        reassign.setId("reassign");
        reassign.setMaxWidth(Double.MAX_VALUE);
        reassign.setTooltip(new Tooltip(Messages.text("dashboard.actions.reassign.tooltip")));
        reassign.disableProperty().bind(model.canReassignProperty().not());
        reassign.setOnAction(e -> model.reassignSelected());
        AskFirstBox warning = new AskFirstBox(model.overCapacity(), new String[] {"capacity-warning", "reassign-anyway",
            "cancel-over-capacity"}, "capacity-warning", Feather.ALERT_TRIANGLE, Styles.WARNING);
        return List.of(new Label(Messages.text("dashboard.actions.reassign.section")), to, reassign, warning);
    }

    private List<javafx.scene.Node> createExtend() {
        Button extend15 = new Button(Messages.text("dashboard.actions.extend15"), new FontIcon(Feather.CLOCK));
        extend15.setId("extend-15");
        extend15.setAccessibleText(Messages.text("dashboard.actions.extend15.accessible"));
        extend15.setOnAction(e -> model.extendSelected(Duration.ofMinutes(15)));
        extend15.disableProperty().bind(model.canActProperty().not());
        Button extend60 = new Button(Messages.text("dashboard.actions.extend60"));
        extend60.setId("extend-60");
        extend60.setAccessibleText(Messages.text("dashboard.actions.extend60.accessible"));
        extend60.setOnAction(e -> model.extendSelected(Duration.ofHours(1)));
        extend60.disableProperty().bind(model.canActProperty().not());
        Label extendNote = new Label(Messages.text("dashboard.actions.extend.note"));
        extendNote.setWrapText(true);
        extendNote.getStyleClass().addAll(Styles.TEXT_MUTED, Styles.TEXT_SMALL);
        return List.of(new Label(Messages.text("dashboard.actions.extend.section")), new HBox(6, extend15, extend60), extendNote);
    }

}
