package org.copydesk.ui.editor;

import atlantafx.base.theme.Styles;
import javafx.beans.binding.Bindings;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import java.util.ArrayList;
import java.util.List;
import javafx.collections.ListChangeListener;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ChoiceBox;
import javafx.scene.control.Label;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.TextArea;
import javafx.scene.control.ToggleButton;
import javafx.scene.control.ToggleGroup;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import javafx.util.StringConverter;
import org.copydesk.review.Stage;
import org.copydesk.review.Verdict;
import org.copydesk.ui.common.Messages;
import org.kordamp.ikonli.feather.Feather;
import org.kordamp.ikonli.javafx.FontIcon;

/**
 * The review panel: the four decisions, the notes with their draft status, Release and Submit,
 * and under Submit why it cannot be pressed or why the last decision was not sent. In a short
 * window the decisions and the notes scroll; Release, Submit and the lines under them stay in view.
 */
final class ReviewPanelView extends VBox {

    /** The notes box is never shorter than about four lines, whatever the window's height. */
    static final double NOTES_MIN_HEIGHT = 88;

    private final EditorViewModel model;
    private final TextArea notes = new TextArea();
    private final ToggleGroup verdicts = new ToggleGroup();

    ReviewPanelView(EditorViewModel model) {
        this.model = model;
        createView();
        initListeners();
    }

    private void createView() {
        Label header = new Label(Messages.text("editor.review"));
        header.getStyleClass().add(Styles.TITLE_4);
        VBox choices = new VBox(4);
        for (Verdict v : Verdict.values()) {
            choices.getChildren().add(verdictButton(v));
        }
        notes.setId("notes");
        notes.setWrapText(true);
        notes.setPromptText(Messages.text("editor.notes.prompt"));
        notes.setAccessibleText(Messages.text("editor.notes"));
        notes.setMinHeight(NOTES_MIN_HEIGHT);
        notes.textProperty().bindBidirectional(model.notesProperty());
        notes.styleProperty().bind(Bindings.concat("-fx-font-size: ",
                model.settings().textSizeProperty().subtract(2), "px;"));
        VBox.setVgrow(notes, Priority.ALWAYS);
        Label draft = new Label();
        draft.setId("draft-status");
        draft.getStyleClass().addAll(Styles.TEXT_MUTED, Styles.TEXT_SMALL);
        draft.textProperty().bind(model.draftStatusProperty());
        draft.managedProperty().bind(draft.textProperty().isNotEmpty());

        // The decision and the notes take what height there is and scroll in a short window; Submit
        // and why it cannot be pressed stay in view below them, never under the notices or off screen.
        VBox form = new VBox(8, header, choices, stageChoices(), notes, draft);
        ScrollPane scroll = new ScrollPane(form);
        scroll.setId("review-form");
        scroll.getStyleClass().add("review-form");
        scroll.setFitToWidth(true);
        scroll.setFitToHeight(true);
        scroll.setFocusTraversable(false);
        scroll.setMinHeight(0);
        VBox.setVgrow(scroll, Priority.ALWAYS);

        Button submit = new Button(Messages.text("editor.submit"), new FontIcon(Feather.SEND));
        submit.setId("submit");
        submit.getStyleClass().add(Styles.SUCCESS);
        submit.setMaxWidth(Double.MAX_VALUE);
        submit.setTooltip(new Tooltip(Messages.text("editor.submit.tooltip", EditorView.SUBMIT.getDisplayText())));
        submit.disableProperty().bind(model.canSubmitProperty().not());
        submit.setOnAction(e -> model.submit());
        Button release = new Button(Messages.text("editor.release"), new FontIcon(Feather.ROTATE_CCW));
        release.setId("release");
        release.getStyleClass().add(Styles.BUTTON_OUTLINED);
        release.setMaxWidth(Double.MAX_VALUE);
        release.setTooltip(new Tooltip(Messages.text("editor.release.tooltip", EditorView.RELEASE.getDisplayText())));
        release.disableProperty().bind(model.canReleaseProperty().not());
        release.setOnAction(e -> model.releaseSelected());
        HBox.setHgrow(submit, Priority.ALWAYS);
        HBox.setHgrow(release, Priority.ALWAYS);
        HBox buttons = new HBox(8, release, submit);
        buttons.setMinHeight(Region.USE_PREF_SIZE);
        // a disabled button shows no tooltip: why Submit cannot be pressed is said under it
        Label why = new Label();
        why.setId("submit-why");
        why.setWrapText(true);
        why.setMinHeight(Region.USE_PREF_SIZE);
        why.getStyleClass().addAll(Styles.TEXT_MUTED, Styles.TEXT_SMALL);
        why.textProperty().bind(model.whyNoSubmitProperty());
        why.visibleProperty().bind(model.whyNoSubmitProperty().isNotEmpty().and(model.selectedProperty().isNotNull()));
        why.managedProperty().bind(why.visibleProperty());
        Label refusal = RevisionDiffView.refusalLine(model.revisions());
        refusal.setMinHeight(Region.USE_PREF_SIZE);
        VBox footer = new VBox(6, buttons, why, refusal);
        footer.setMinHeight(Region.USE_PREF_SIZE);

        getChildren().addAll(scroll, footer);
        setSpacing(8);
        setPadding(new Insets(12, 14, 12, 14));
        disableProperty().bind(model.selectedProperty().isNull());
        getStyleClass().add("review-panel");
    }

    private ToggleButton verdictButton(Verdict v) {
        ToggleButton b = new ToggleButton(VerdictWords.label(v), new FontIcon(switch (v) {
            case APPROVE -> Feather.CHECK_CIRCLE;
            case REJECT -> Feather.X_CIRCLE;
            case SEND_BACK -> Feather.CORNER_UP_LEFT;
            case UNREVIEWABLE -> Feather.SLASH;
        }));
        b.setId("verdict-" + v.code());
        b.setUserData(v);
        b.setToggleGroup(verdicts);
        b.setMaxWidth(Double.MAX_VALUE);
        b.setAlignment(Pos.CENTER_LEFT);
        b.setTooltip(new Tooltip(Messages.text(v.needsNotes() ? "editor.verdict.tooltipNeedsNote" : "editor.verdict.tooltip",
                VerdictWords.label(v), EditorView.VERDICT_KEYS.get(v).getDisplayText())));
        if (v == Verdict.APPROVE) { // where it goes next on a desk with stages: "Approve → Legal", "Approve (final)"
            b.textProperty().bind(model.stages().approveLabel());
            b.setMinHeight(Region.USE_PREF_SIZE);
            b.setWrapText(true);
        }
        return b;
    }

    /**
     * On a desk with stages: with a send-back, where it goes (the writer, or an earlier stage); with
     * an approval or a send-back, a "Needs legal" tick for each later stage entered only when asked.
     * Nothing on a desk without stages.
     */
    private Node stageChoices() {
        StageChoices stages = model.stages();
        ChoiceBox<Stage> to = new ChoiceBox<>();
        to.setId("send-back-to");
        to.setConverter(new StringConverter<>() {
            @Override
            public String toString(Stage s) {
                return s == null ? Messages.text("editor.stage.sendBackTo.writer") : s.name();
            }

            @Override
            public Stage fromString(String text) {
                return null;
            }
        });
        to.setMaxWidth(Double.MAX_VALUE);
        Label toLabel = new Label(Messages.text("editor.stage.sendBackTo"));
        toLabel.setLabelFor(to);
        toLabel.setMinWidth(Region.USE_PREF_SIZE);
        HBox.setHgrow(to, Priority.ALWAYS);
        HBox sendBack = new HBox(8, toLabel, to);
        sendBack.setAlignment(Pos.CENTER_LEFT);
        Runnable fillTargets = () -> {
            List<Stage> targets = new ArrayList<>();
            targets.add(null); // the writer, as on a desk without stages
            targets.addAll(stages.sendBackStages());
            to.getItems().setAll(targets);
            to.setValue(stages.sendBackTo().get());
        };
        stages.sendBackStages().addListener((ListChangeListener<Stage>) c -> fillTargets.run());
        stages.sendBackTo().addListener((o, a, s) -> to.setValue(s));
        to.valueProperty().addListener((o, a, s) -> stages.sendBackTo().set(s));
        fillTargets.run();
        sendBack.visibleProperty().bind(model.verdictProperty().isEqualTo(Verdict.SEND_BACK)
                .and(Bindings.isNotEmpty(stages.sendBackStages())));
        sendBack.managedProperty().bind(sendBack.visibleProperty());

        VBox ticks = new VBox(4);
        ticks.setId("stage-ticks");
        Runnable fillTicks = () -> ticks.getChildren().setAll(stages.ticks().stream().map(t -> {
            CheckBox c = new CheckBox(StageWords.needs(t.stage()));
            c.setId("needs-" + t.stage().id());
            c.selectedProperty().bindBidirectional(t.ticked());
            c.setDisable(t.askedBefore()); // asked for already (by an earlier reviewer or the import): it goes through it
            c.setTooltip(new Tooltip(Messages.text(t.askedBefore() ? "editor.stage.needs.askedBefore" : "editor.stage.needs.tooltip",
                    t.stage().name())));
            c.setWrapText(true);
            c.setMinHeight(Region.USE_PREF_SIZE);
            return (Node) c;
        }).toList());
        stages.ticks().addListener((ListChangeListener<StageChoices.AskTick>) c -> fillTicks.run());
        fillTicks.run();
        ticks.visibleProperty().bind(Bindings.isNotEmpty(stages.ticks()).and(model.verdictProperty().isEqualTo(Verdict.APPROVE)
                .or(model.verdictProperty().isEqualTo(Verdict.SEND_BACK))));
        ticks.managedProperty().bind(ticks.visibleProperty());
        VBox box = new VBox(6, sendBack, ticks);
        box.visibleProperty().bind(sendBack.visibleProperty().or(ticks.visibleProperty()));
        box.managedProperty().bind(box.visibleProperty());
        return box;
    }

    private void initListeners() {
        verdicts.selectedToggleProperty().addListener((o, old, t) -> model.verdictProperty().set(t == null ? null
                : (Verdict) t.getUserData()));
        model.verdictProperty().addListener((o, old, v) -> selectToggle(v));
        selectToggle(model.verdictProperty().get());
    }

    private void selectToggle(Verdict v) {
        verdicts.getToggles().stream().filter(t -> t.getUserData() == v).findFirst()
                .ifPresentOrElse(verdicts::selectToggle, () -> verdicts.selectToggle(null));
    }

    /** A decision chosen by its key: the notes are where the editor goes on typing. */
    void focusNotes() {
        notes.requestFocus();
    }
}
