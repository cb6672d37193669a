package org.copydesk.ui.supervisor;

import atlantafx.base.theme.Styles;
import javafx.collections.SetChangeListener;
import javafx.collections.WeakSetChangeListener;
import javafx.scene.control.CheckBox;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.control.TextField;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyEvent;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import org.copydesk.review.Editor;
import org.copydesk.ui.common.Messages;

/**
 * The {@link StageTakerPicker}: a search field (name or account) over the people, each a tick with
 * whether they are signed in and how much they hold. Down from the search goes to the list; Space
 * ticks or unticks the person the list's focus is on; a click on a tick does the same.
 */
final class StageTakerPickerView extends VBox {

    private final StageTakerPicker picker;
    private final ListView<Editor> people;

    StageTakerPickerView(StageTakerPicker picker) {
        super(4);
        this.picker = picker;
        setId("stage-takers-picker");
        Label title = new Label(Messages.text("dashboard.stages.setup.takers"));
        title.getStyleClass().addAll(Styles.TEXT_MUTED, Styles.TEXT_SMALL);
        title.setWrapText(true);
        title.setMinHeight(Region.USE_PREF_SIZE);
        TextField search = new TextField();
        search.setId("stage-takers-search");
        search.setPromptText(Messages.text("dashboard.stages.takers.search"));
        search.setAccessibleText(Messages.text("dashboard.stages.takers.search"));
        search.textProperty().bindBidirectional(picker.searchProperty());
        title.setLabelFor(search);
        people = new ListView<>(picker.shown());
        people.setId("stage-takers");
        people.setAccessibleText(Messages.text("dashboard.stages.setup.takers"));
        people.setPrefHeight(130);
        people.setMinHeight(80);
        people.setPlaceholder(Tables.muted(Messages.text("dashboard.stages.takers.nobody")));
        people.setCellFactory(v -> new TakerCell());
        people.addEventFilter(KeyEvent.KEY_PRESSED, e -> {
            Editor focused = people.getFocusModel().getFocusedItem();
            if (e.getCode() == KeyCode.SPACE && focused != null) {
                picker.toggle(focused);
                e.consume();
            }
        });
        search.addEventFilter(KeyEvent.KEY_PRESSED, e -> {
            if (e.getCode() == KeyCode.DOWN && !picker.shown().isEmpty()) {
                people.requestFocus();
                people.getFocusModel().focus(0);
                e.consume();
            }
        });
        getChildren().addAll(title, search, people);
    }

    /** A person with their tick; the tick follows the picker. */
    private final class TakerCell extends ListCell<Editor> {
        private final CheckBox tick = new CheckBox();
        private final SetChangeListener<String> follow = c -> showTick();

        TakerCell() {
            picker.ticked().addListener(new WeakSetChangeListener<>(follow));
            tick.setFocusTraversable(false); // the list keeps the focus; Space ticks
            tick.setOnAction(e -> {
                if (getItem() != null) {
                    picker.toggle(getItem());
                }
            });
        }

        @Override
        protected void updateItem(Editor e, boolean empty) {
            super.updateItem(e, empty);
            if (empty || e == null) {
                setGraphic(null);
                setText(null);
                return;
            }
            showTick();
            tick.setId("taker-" + e.id());
            setGraphic(tick);
            setText(picker.label(e));
        }

        private void showTick() {
            tick.setSelected(getItem() != null && picker.ticked().contains(getItem().id()));
        }
    }
}
