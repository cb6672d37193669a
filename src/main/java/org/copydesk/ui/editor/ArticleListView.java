package org.copydesk.ui.editor;

import atlantafx.base.controls.Spacer;
import atlantafx.base.theme.Styles;
import javafx.collections.ListChangeListener;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.ContentDisplay;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import org.copydesk.ui.common.Messages;
import org.kordamp.ikonli.feather.Feather;
import org.kordamp.ikonli.javafx.FontIcon;

/**
 * "My articles": the heading with "3 of 5", the nudge when work is waiting, and the list with each
 * lease's countdown (or what an empty list means). The list's selection is the view model's.
 */
final class ArticleListView extends VBox {

    private final EditorViewModel model;
    private final ListView<LeaseRow> list = new ListView<>();

    ArticleListView(EditorViewModel model) {
        super(10);
        this.model = model;
        createView();
        initListeners();
    }

    private void createView() {
        Label header = new Label(Messages.text("editor.myArticles"));
        header.getStyleClass().add(Styles.TITLE_4);
        Label count = new Label();
        count.getStyleClass().add(Styles.TEXT_MUTED);
        count.textProperty().bind(model.summaryProperty());
        HBox head = new HBox(8, header, new Spacer(), count);
        head.setAlignment(Pos.BASELINE_LEFT);

        list.setId("articles");
        list.setItems(model.articles());
        list.setCellFactory(v -> new LeaseCell(list, model::deskDisplayName, model.stages()::badge, model.zone()));
        Label empty = new Label();
        empty.setId("empty-state");
        empty.setWrapText(true);
        empty.getStyleClass().addAll(Styles.TEXT_MUTED, "empty-state");
        empty.textProperty().bind(model.emptyTextProperty());
        empty.setGraphic(new FontIcon(Feather.INBOX));
        empty.setContentDisplay(ContentDisplay.TOP);
        list.setPlaceholder(empty);
        VBox.setVgrow(list, Priority.ALWAYS);
        getChildren().addAll(head, createWaitingNudge(), list);
        setPadding(new Insets(14));
    }

    /** "3 articles waiting on News — F5" with a button, while the editor has room and work waits. */
    private Node createWaitingNudge() {
        Label text = new Label();
        text.setId("waiting");
        text.setWrapText(true);
        text.textProperty().bind(model.waitingProperty());
        text.setGraphic(new FontIcon(Feather.INBOX));
        Button get = new Button(Messages.text("editor.list.getWaiting"));
        get.setId("get-waiting");
        get.getStyleClass().addAll(Styles.SMALL, Styles.ACCENT);
        get.disableProperty().bind(model.canReloadProperty().not());
        get.setOnAction(e -> model.reload());
        get.setMinWidth(Region.USE_PREF_SIZE); // the words wrap, the button stays whole
        text.setMaxWidth(Double.MAX_VALUE);
        text.setMinHeight(Region.USE_PREF_SIZE); // wrapped lines, not "20 or mor…"
        HBox.setHgrow(text, Priority.ALWAYS);
        HBox nudge = new HBox(8, text, get);
        nudge.setAlignment(Pos.CENTER_LEFT);
        nudge.getStyleClass().add("waiting-nudge");
        nudge.visibleProperty().bind(model.waitingProperty().isNotEmpty());
        nudge.managedProperty().bind(nudge.visibleProperty());
        return nudge;
    }

    private void initListeners() {
        model.deskChangesProperty().addListener((o, was, now) -> list.refresh()); // the desk badges show the names now
        list.getSelectionModel().selectedItemProperty().addListener((o, old, row) -> {
            if (row != null && row != model.selectedProperty().get()) {
                model.selectedProperty().set(row);
            }
        });
        model.selectedProperty().addListener((o, old, row) -> {
            if (row == null) {
                list.getSelectionModel().clearSelection();
            } else if (list.getSelectionModel().getSelectedItem() != row) {
                list.getSelectionModel().select(row);
                list.scrollTo(row);
            }
        });
        model.articles().addListener((ListChangeListener<LeaseRow>) c -> {
            LeaseRow row = model.selectedProperty().get();
            if (row != null && list.getSelectionModel().getSelectedItem() != row) {
                list.getSelectionModel().select(row);
            }
        });
    }
}
