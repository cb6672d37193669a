package org.copydesk.ui.editor;

import atlantafx.base.theme.Styles;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javafx.collections.ListChangeListener;
import javafx.geometry.Insets;
import javafx.scene.control.CheckBox;
import javafx.scene.control.Label;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyEvent;
import javafx.scene.layout.VBox;
import org.copydesk.ui.common.Messages;

/**
 * The ticks of a {@link WorkChoiceModel}: a desk without stages is one tick; a desk with stages is
 * a tick for the whole desk with a tick per stage under it (the desk's tick shows "some" when only
 * some are ticked). Every tick is reached with Tab and changed with Space. Says that ticking
 * nothing means everything the person may work.
 */
final class WorkChoicePane extends VBox {

    private final WorkChoiceModel model;
    private final VBox ticks = new VBox(6);

    /** @param onEnter what Enter on a tick does (Start, Keep): a focused check box keeps Enter from the default button */
    WorkChoicePane(WorkChoiceModel model, Runnable onEnter) {
        super(8);
        this.model = model;
        setId("work-choices");
        addEventFilter(KeyEvent.KEY_PRESSED, e -> {
            if (e.getCode() == KeyCode.ENTER) {
                onEnter.run();
                e.consume();
            }
        });
        Label hint = new Label(Messages.text("editor.workChoice.noneMeansAll"));
        hint.setId("work-choice-hint");
        hint.setWrapText(true);
        hint.getStyleClass().addAll(Styles.TEXT_MUTED, Styles.TEXT_SMALL);
        Label error = new Label();
        error.setWrapText(true);
        error.getStyleClass().add(Styles.DANGER);
        error.textProperty().bind(model.errorProperty());
        error.visibleProperty().bind(model.errorProperty().isNotEmpty());
        error.managedProperty().bind(error.visibleProperty());
        getChildren().addAll(ticks, hint, error);
        model.picks().addListener((ListChangeListener<WorkChoiceModel.Pick>) c -> render());
        render();
    }

    /** The first tick, for the focus. */
    CheckBox first() {
        return ticks.getChildren().isEmpty() ? null : (CheckBox) ticks.getChildren().get(0);
    }

    private void render() {
        ticks.getChildren().clear();
        Map<String, List<WorkChoiceModel.Pick>> byDesk = new LinkedHashMap<>();
        model.picks().forEach(p -> byDesk.computeIfAbsent(p.option().desk(), d -> new ArrayList<>()).add(p));
        byDesk.forEach((desk, picks) -> {
            WorkChoiceModel.Pick firstPick = picks.get(0);
            if (firstPick.option().stage() == null) {
                CheckBox box = new CheckBox(firstPick.option().deskName());
                box.setId("desk-" + desk);
                box.selectedProperty().bindBidirectional(firstPick.tickedProperty());
                ticks.getChildren().add(box);
                return;
            }
            CheckBox whole = new CheckBox(firstPick.option().deskName());
            whole.setId("desk-" + desk);
            ticks.getChildren().add(whole);
            for (WorkChoiceModel.Pick p : picks) {
                CheckBox stage = new CheckBox(p.option().stageName());
                stage.setId("stage-" + desk + "-" + p.option().stage());
                stage.setPadding(new Insets(0, 0, 0, 24));
                stage.selectedProperty().bindBidirectional(p.tickedProperty());
                p.tickedProperty().addListener((o, was, now) -> showWhole(whole, picks));
                ticks.getChildren().add(stage);
            }
            showWhole(whole, picks);
            whole.setOnAction(e -> {
                boolean all = whole.isSelected();
                picks.forEach(p -> p.tickedProperty().set(all));
            });
        });
    }

    /** The desk's tick: ticked when all its stages are, "some" when some are. */
    private static void showWhole(CheckBox whole, List<WorkChoiceModel.Pick> picks) {
        long ticked = picks.stream().filter(p -> p.tickedProperty().get()).count();
        whole.setIndeterminate(ticked > 0 && ticked < picks.size());
        whole.setSelected(ticked == picks.size());
    }
}
