package org.copydesk.ui.editor;

import atlantafx.base.theme.Styles;
import javafx.beans.binding.Bindings;
import javafx.collections.ListChangeListener;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.control.ScrollPane;
import javafx.scene.layout.HBox;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.TextArea;
import javafx.scene.control.TitledPane;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.StackPane;
import javafx.scene.layout.VBox;
import org.copydesk.ui.common.Messages;
import org.kordamp.ikonli.feather.Feather;
import org.kordamp.ikonli.javafx.FontIcon;

/**
 * The reader: the open article's title, byline and meta line (with its stage and time left before
 * it is due), its text (plain, or with the
 * revision's changes marked: {@link RevisionDiffView}) and its history, folded away below. With
 * nothing selected it says so.
 */
final class ReaderView extends StackPane {

    /** About four lines of earlier stages' notes; more scroll. */
    private static final double EARLIER_MAX_HEIGHT = 76;

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
        Label stage = new Label();
        stage.setId("reader-stage");
        stage.getStyleClass().addAll("badge", "stage-badge");
        stage.textProperty().bind(model.stages().line());
        stage.visibleProperty().bind(stage.textProperty().isNotEmpty());
        stage.managedProperty().bind(stage.visibleProperty());
        meta.setMinWidth(0);
        HBox.setHgrow(meta, Priority.ALWAYS);
        stage.setMinWidth(Region.USE_PREF_SIZE);
        HBox metaLine = new HBox(8, stage, due(), meta);
        metaLine.setAlignment(Pos.CENTER_LEFT);

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

        VBox reader = new VBox(8, title, byline, metaLine, earlierStages(), text, historyPane);
        // in a short window the byline leads the meta line instead of taking a line of its own: the article keeps the room
        byline.setMinWidth(0);
        ShortWindow.follow(reader, isShort -> {
            if (isShort && !metaLine.getChildren().contains(byline)) {
                reader.getChildren().remove(byline);
                metaLine.getChildren().add(0, byline);
            } else if (!isShort && !reader.getChildren().contains(byline)) {
                metaLine.getChildren().remove(byline);
                reader.getChildren().add(1, byline);
            }
        });
        reader.setPadding(new Insets(18, 22, 14, 22));
        reader.getStyleClass().add("reader");
        Label nothing = new Label(Messages.text("editor.reader.empty"));
        nothing.getStyleClass().add(Styles.TEXT_MUTED);
        getChildren().addAll(reader, nothing);
        setId("reader");
        reader.visibleProperty().bind(model.selectedProperty().isNotNull());
        nothing.visibleProperty().bind(model.selectedProperty().isNull());
    }

    /**
     * The open article's time left ("due in 25 min", "late by 12 min" with a warning icon), on the
     * window's tick; not there for an article without a due time.
     */
    private Label due() {
        Label due = new Label();
        due.setId("reader-due");
        due.getStyleClass().add("due-time");
        due.setMinWidth(Region.USE_PREF_SIZE);
        due.textProperty().bind(model.due().selectedText());
        due.visibleProperty().bind(due.textProperty().isNotEmpty());
        due.managedProperty().bind(due.visibleProperty());
        FontIcon dueIcon = new FontIcon(Feather.FLAG);
        FontIcon lateIcon = new FontIcon(Feather.ALERT_TRIANGLE);
        Runnable mark = () -> {
            due.pseudoClassStateChanged(LeaseCell.LATE, model.due().selectedLate().get());
            due.setGraphic(model.due().selectedLate().get() ? lateIcon : dueIcon);
        };
        model.due().selectedLate().addListener((o, was, now) -> mark.run());
        mark.run();
        return due;
    }

    /**
     * The decisions made at the article's earlier stages, oldest first ("Copy edit: Ann Kowalski
     * approved at 14:02 — tightened the intro"): at most about four lines high, scrolling beyond, so
     * the article's text keeps its room in a small window. Not there on a desk without stages.
     */
    private Node earlierStages() {
        VBox notes = new VBox(2);
        notes.setId("stage-notes");
        ListChangeListener<String> fill = c -> notes.getChildren().setAll(model.stages().earlier().stream().map(line -> {
            Label l = new Label(line);
            l.setWrapText(true);
            l.getStyleClass().add(Styles.TEXT_SMALL);
            l.setMinHeight(Region.USE_PREF_SIZE);
            return (Node) l;
        }).toList());
        model.stages().earlier().addListener(fill);
        Label header = new Label(Messages.text("editor.stage.earlier"));
        header.getStyleClass().addAll(Styles.TEXT_MUTED, Styles.TEXT_SMALL, Styles.TEXT_BOLD);
        ScrollPane scroll = new ScrollPane(notes);
        scroll.setFitToWidth(true);
        scroll.setHbarPolicy(ScrollPane.ScrollBarPolicy.NEVER);
        scroll.getStyleClass().add("edge-to-edge");
        scroll.setFocusTraversable(false);
        scroll.setMaxHeight(EARLIER_MAX_HEIGHT);
        scroll.prefHeightProperty().bind(Bindings.min(EARLIER_MAX_HEIGHT, notes.heightProperty().add(2)));
        scroll.setMinHeight(0);
        VBox box = new VBox(2, header, scroll);
        box.setId("earlier-stages");
        box.visibleProperty().bind(Bindings.isNotEmpty(model.stages().earlier()));
        box.managedProperty().bind(box.visibleProperty());
        return box;
    }
}
