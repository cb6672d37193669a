package org.copydesk.ui.supervisor;

import static org.copydesk.ui.supervisor.Tables.muted;
import static org.copydesk.ui.supervisor.Tables.textColumn;

import atlantafx.base.theme.Styles;
import java.util.List;
import javafx.geometry.Orientation;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.ChoiceBox;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.SplitPane;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import org.copydesk.review.AuditLog;
import org.copydesk.review.HistoryEntry;
import org.copydesk.ui.common.DataWords;
import org.copydesk.ui.common.Formats;
import org.copydesk.ui.common.Messages;
import org.kordamp.ikonli.feather.Feather;
import org.kordamp.ikonli.javafx.FontIcon;

/** The "Audit" page: the event log with its filters, and the chosen event's article history. Binds to {@link AuditViewModel}. */
final class AuditPage extends VBox {

    AuditPage(AuditViewModel model) {
        super(10);
        TextField editor = new TextField();
        editor.setId("audit-editor");
        editor.setPromptText(Messages.text("dashboard.audit.editor.prompt"));
        editor.setPrefColumnCount(16);
        editor.textProperty().bindBidirectional(model.editorProperty());
        TextField article = new TextField();
        article.setId("audit-article");
        article.setPromptText(Messages.text("dashboard.audit.article.prompt"));
        article.setPrefColumnCount(8);
        article.textProperty().bindBidirectional(model.articleProperty());
        ComboBox<String> action = new ComboBox<>();
        action.setId("audit-action");
        action.getItems().add(null);
        action.getItems().addAll(model.actions());
        action.setPromptText(Messages.text("dashboard.audit.anyAction"));
        action.setButtonCell(actionCell());
        action.setCellFactory(v -> actionCell());
        action.valueProperty().bindBidirectional(model.actionProperty());
        ChoiceBox<AuditViewModel.AuditRange> range = new ChoiceBox<>();
        range.setId("audit-range");
        range.getItems().setAll(AuditViewModel.AuditRange.values());
        range.valueProperty().bindBidirectional(model.rangeProperty());
        Button search = new Button(Messages.text("dashboard.audit.search"), new FontIcon(Feather.SEARCH));
        search.setId("audit-search");
        search.setDefaultButton(false);
        search.setOnAction(e -> model.search());
        editor.setOnAction(e -> model.search());
        article.setOnAction(e -> model.search());
        Label summary = new Label();
        summary.getStyleClass().add(Styles.TEXT_MUTED);
        summary.textProperty().bind(model.summaryProperty());
        HBox filters = new HBox(10, editor, article, action, range, search, summary);
        filters.setAlignment(Pos.CENTER_LEFT);

        TableView<AuditLog.Entry> audit = new TableView<>();
        audit.setId("audit");
        audit.setItems(model.entries());
        audit.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        audit.getColumns().setAll(List.of(
                textColumn(Messages.text("dashboard.audit.when.column"), 150, e -> Formats.localDayClock(e.at(), model.zone())),
                textColumn(Messages.text("dashboard.audit.article.column"), 70, e -> e.articleId() == null ? "" : e.articleId().toString()),
                textColumn(Messages.text("dashboard.audit.action.column"), 100, e -> DataWords.action(e.action())),
                textColumn(Messages.text("dashboard.audit.by.column"), 90, AuditLog.Entry::actor),
                textColumn(Messages.text("dashboard.audit.holder.column"), 150, e -> owners(e.oldOwner(), e.newOwner())),
                textColumn(Messages.text("dashboard.audit.detail.column"), 400, e -> e.detail() == null ? "" : e.detail())));
        audit.setPlaceholder(muted(Messages.text("dashboard.audit.empty")));
        audit.getSelectionModel().selectedItemProperty().addListener((o, a, e) -> model.showHistory(e));

        Label historyTitle = new Label();
        historyTitle.setId("history-title");
        historyTitle.getStyleClass().add(Styles.TEXT_BOLD);
        historyTitle.textProperty().bind(model.historyTitleProperty());
        TableView<HistoryEntry> history = new TableView<>(model.history());
        history.setId("article-history");
        history.setPlaceholder(muted(Messages.text("dashboard.audit.history.empty")));
        history.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        history.getColumns().setAll(List.of(
                textColumn(Messages.text("dashboard.audit.when.column"), 150, h -> Formats.localDayClock(h.at(), model.zone())),
                textColumn(Messages.text("dashboard.audit.action.column"), 100, h -> DataWords.action(h.action())),
                textColumn(Messages.text("dashboard.audit.by.column"), 90, HistoryEntry::actor),
                textColumn(Messages.text("dashboard.audit.holder.column"), 150, h -> owners(h.oldOwner(), h.newOwner())),
                textColumn(Messages.text("dashboard.audit.detail.column"), 400, h -> h.detail() == null ? "" : h.detail())));
        VBox.setVgrow(history, Priority.ALWAYS);
        VBox historyBox = new VBox(6, historyTitle, history);
        SplitPane split = new SplitPane(audit, historyBox);
        split.setOrientation(Orientation.VERTICAL);
        split.setDividerPositions(0.6);
        VBox.setVgrow(split, Priority.ALWAYS);
        getChildren().addAll(filters, Tables.inlineError("audit-error", model.errorProperty()), split);
        Tables.padded(this);
    }

    private static ListCell<String> actionCell() {
        return new ListCell<>() {
            @Override
            protected void updateItem(String a, boolean empty) {
                super.updateItem(a, empty);
                setText(empty ? null : a == null ? Messages.text("dashboard.audit.anyAction") : a.replace('_', ' '));
            }
        };
    }

    private static String owners(String oldOwner, String newOwner) {
        if (oldOwner == null && newOwner == null) {
            return "";
        }
        if (oldOwner != null && oldOwner.equals(newOwner)) {
            return oldOwner;
        }
        return (oldOwner == null ? "\u2014" : oldOwner) + " \u2192 " + (newOwner == null ? "\u2014" : newOwner);
    }
}
