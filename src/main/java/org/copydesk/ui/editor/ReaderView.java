package org.copydesk.ui.editor;

import atlantafx.base.theme.Styles;
import javafx.beans.binding.Bindings;
import javafx.geometry.Insets;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.TextArea;
import javafx.scene.control.TitledPane;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.StackPane;
import javafx.scene.layout.VBox;
import org.copydesk.ui.common.Messages;

/**
 * The reader: the open article's title, byline and meta line, its text (plain, or with the
 * revision's changes marked: {@link RevisionDiffView}) and its history, folded away below. With
 * nothing selected it says so.
 */
final class ReaderView extends StackPane {

    private final EditorViewModel model;

    ReaderView(EditorViewModel model) {
        this.model = model;
        createView();
    }

    private void createView() {
        Label title = new Label();
        title.setId("reader-title");
        title.setWrapText(true);
        title.getStyleClass().addAll(Styles.TITLE_2, "reader-title");
        title.setMinHeight(Region.USE_PREF_SIZE); // wrapped, never cut short: the article's text gives way
        title.textProperty().bind(model.titleProperty());
        Label byline = new Label();
        byline.getStyleClass().add(Styles.TEXT_ITALIC);
        byline.textProperty().bind(model.bylineProperty());
        Label meta = new Label();
        meta.setId("reader-meta");
        meta.getStyleClass().addAll(Styles.TEXT_MUTED, Styles.TEXT_SMALL);
        meta.textProperty().bind(model.metaProperty());

        TextArea body = new TextArea();
        body.setId("reader-body");
        body.setEditable(false);
        body.setWrapText(true);
        body.getStyleClass().add("reader-body");
        body.textProperty().bind(model.bodyProperty());
        body.styleProperty().bind(Bindings.concat("-fx-font-size: ", model.settings().textSizeProperty(), "px;"));
        body.setFocusTraversable(false);
        RevisionDiffView text = new RevisionDiffView(model.revisions(), body, model.settings().textSizeProperty());
        VBox.setVgrow(text, Priority.ALWAYS);

        ListView<String> history = new ListView<>(model.historyLines());
        history.setId("history");
        Label noHistory = new Label(Messages.text("editor.history.empty"));
        noHistory.getStyleClass().add(Styles.TEXT_MUTED);
        history.setPlaceholder(noHistory);
        history.setPrefHeight(150);
        TitledPane historyPane = new TitledPane(Messages.text("editor.history"), history);
        historyPane.setExpanded(false);

        VBox reader = new VBox(8, title, byline, meta, text, historyPane);
        reader.setPadding(new Insets(18, 22, 14, 22));
        reader.getStyleClass().add("reader");
        Label nothing = new Label(Messages.text("editor.reader.empty"));
        nothing.getStyleClass().add(Styles.TEXT_MUTED);
        getChildren().addAll(reader, nothing);
        setId("reader");
        reader.visibleProperty().bind(model.selectedProperty().isNotNull());
        nothing.visibleProperty().bind(model.selectedProperty().isNull());
    }
}
