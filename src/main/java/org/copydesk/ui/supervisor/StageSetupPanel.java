package org.copydesk.ui.supervisor;

import atlantafx.base.theme.Styles;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ChoiceBox;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.control.TextField;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import org.copydesk.review.Stage;
import org.copydesk.ui.common.Messages;
import org.kordamp.ikonli.feather.Feather;
import org.kordamp.ikonli.javafx.FontIcon;

/** An admin's setup of the desk's chain, beside its board: the stages in order and the chosen one's form. */
final class StageSetupPanel extends VBox {

    StageSetupPanel(StageSetupViewModel setup, StageBoardViewModel board) {
        super(6);
        setId("stage-setup");
        Label header = new Label(Messages.text("dashboard.stages.setup.title"));
        header.getStyleClass().add(Styles.TITLE_4);

        ListView<Stage> chain = new ListView<>(board.chain());
        chain.setId("stage-chain");
        chain.setPrefHeight(120);
        chain.setMinHeight(80);
        chain.setPlaceholder(Tables.muted(Messages.text("dashboard.stages.setup.empty")));
        chain.setCellFactory(v -> new ListCell<>() {
            @Override
            protected void updateItem(Stage s, boolean empty) {
                super.updateItem(s, empty);
                setText(empty || s == null ? null : Messages.text("dashboard.stages.setup.item", s.position(), s.name()));
            }
        });
        chain.getSelectionModel().selectedItemProperty().addListener((o, a, s) -> {
            if (s != null) {
                setup.selectedProperty().set(s);
            }
        });
        setup.selectedProperty().addListener((o, a, s) -> {
            if (s == null) {
                chain.getSelectionModel().clearSelection();
            } else if (!s.equals(chain.getSelectionModel().getSelectedItem())) {
                chain.getSelectionModel().select(s);
            }
        });
        Button up = iconButton("stage-up", Feather.ARROW_UP, "dashboard.stages.setup.up", () -> setup.move(-1));
        Button down = iconButton("stage-down", Feather.ARROW_DOWN, "dashboard.stages.setup.down", () -> setup.move(1));
        up.disableProperty().bind(setup.canChangeSelectedProperty().not());
        down.disableProperty().bind(setup.canChangeSelectedProperty().not());
        Button add = new Button(Messages.text("dashboard.stages.setup.new"));
        add.setId("stage-new");
        add.getStyleClass().add(Styles.SMALL);
        add.setOnAction(e -> setup.newStage());
        Button remove = new Button(Messages.text("dashboard.stages.setup.remove"));
        remove.setId("stage-remove");
        remove.getStyleClass().addAll(Styles.SMALL, Styles.DANGER);
        remove.disableProperty().bind(setup.canChangeSelectedProperty().not());
        remove.setOnAction(e -> setup.askToRemove());
        HBox chainButtons = new HBox(6, up, down, add, remove);
        chainButtons.setAlignment(Pos.CENTER_LEFT);

        TextField id = field("stage-id", "dashboard.stages.setup.id", setup.idProperty());
        id.disableProperty().bind(setup.selectedProperty().isNotNull()); // a stage's id names it in the history: it stays
        TextField name = field("stage-display-name", "dashboard.stages.setup.name", setup.nameProperty());
        TextField lease = field("stage-lease", "dashboard.stages.setup.lease", setup.leaseMinutesProperty());
        CheckBox whenAsked = check("stage-when-asked", "dashboard.stages.setup.whenAsked", setup.whenAskedProperty());
        CheckBox fourEyes = check("stage-four-eyes", "dashboard.stages.setup.fourEyes", setup.fourEyesProperty());
        CheckBox named = check("stage-named", "dashboard.stages.setup.named", setup.namedTakersProperty());
        StageTakerPickerView takers = new StageTakerPickerView(setup.takerPicker());
        takers.visibleProperty().bind(setup.namedTakersProperty());
        takers.managedProperty().bind(takers.visibleProperty());
        Button save = new Button(Messages.text("dashboard.stages.setup.save"));
        save.setId("stage-save");
        save.getStyleClass().add(Styles.ACCENT);
        save.disableProperty().bind(setup.canSaveProperty().not());
        save.setOnAction(e -> setup.save());

        AskFirstBox ask = new AskFirstBox(setup.removal(), new String[] {"stage-remove-question", "stage-remove-confirm",
            "stage-remove-cancel"}, "action-question", Feather.ALERT_TRIANGLE, Styles.DANGER);
        ChoiceBox<Stage> removeTo = new ChoiceBox<>(setup.removeTargets());
        removeTo.setId("stage-remove-to");
        removeTo.setConverter(StagesPage.named(Stage::name, ""));
        removeTo.valueProperty().bindBidirectional(setup.removeToProperty());
        removeTo.setMaxWidth(Double.MAX_VALUE);
        Label goTo = new Label(Messages.text("dashboard.stages.setup.removeTo"));
        goTo.setMinWidth(Region.USE_PREF_SIZE);
        HBox.setHgrow(removeTo, Priority.ALWAYS);
        HBox where = new HBox(6, goTo, removeTo);
        where.setAlignment(Pos.CENTER_LEFT);
        where.visibleProperty().bind(javafx.beans.binding.Bindings.isNotEmpty(setup.removeTargets())
                .and(setup.removal().questionProperty().isNotEmpty()));
        where.managedProperty().bind(where.visibleProperty());
        ask.getChildren().add(1, where); // the question, where they go, then the answer
        Label error = Tables.inlineError("stage-setup-error", setup.errorProperty());

        getChildren().addAll(header, chain, chainButtons, ask, labelled(id), labelled(name), labelled(lease), whenAsked, fourEyes,
                named, takers, save, error);
    }

    private static Button iconButton(String id, Feather icon, String tooltip, Runnable action) {
        Button b = new Button(null, new FontIcon(icon));
        b.setId(id);
        b.getStyleClass().addAll(Styles.SMALL, Styles.BUTTON_ICON);
        b.setTooltip(new Tooltip(Messages.text(tooltip)));
        b.setAccessibleText(Messages.text(tooltip));
        b.setOnAction(e -> action.run());
        return b;
    }

    /** A field with its name above it: a prompt alone goes once the field is filled. */
    private static VBox labelled(TextField f) {
        Label l = new Label(f.getPromptText());
        l.getStyleClass().addAll(Styles.TEXT_MUTED, Styles.TEXT_SMALL);
        l.setLabelFor(f);
        l.setWrapText(true);
        l.setMinHeight(Region.USE_PREF_SIZE);
        return new VBox(2, l, f);
    }

    private static TextField field(String id, String prompt, javafx.beans.property.StringProperty value) {
        TextField f = new TextField();
        f.setId(id);
        f.setPromptText(Messages.text(prompt));
        f.setAccessibleText(Messages.text(prompt));
        f.setTooltip(new Tooltip(Messages.text(prompt)));
        f.textProperty().bindBidirectional(value);
        return f;
    }

    private static CheckBox check(String id, String text, javafx.beans.property.BooleanProperty value) {
        CheckBox c = new CheckBox(Messages.text(text));
        c.setId(id);
        c.setWrapText(true);
        c.setMinHeight(Region.USE_PREF_SIZE);
        c.selectedProperty().bindBidirectional(value);
        return c;
    }
}
