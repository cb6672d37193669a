package org.copydesk.ui.supervisor;

import static org.copydesk.ui.supervisor.Tables.muted;
import static org.copydesk.ui.supervisor.Tables.textColumn;

import atlantafx.base.theme.Styles;
import java.util.List;
import javafx.geometry.Orientation;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ChoiceBox;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.SplitPane;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import org.copydesk.review.AuditLog;
import org.copydesk.review.Editor;
import org.copydesk.review.HistoryEntry;
import org.copydesk.ui.common.DataWords;
import org.copydesk.ui.common.Formats;
import org.copydesk.ui.common.Messages;
import org.kordamp.ikonli.feather.Feather;
import org.kordamp.ikonli.javafx.FontIcon;

/**
 * The "Audit" page: the event log with its filters (person, article, action, time, renewals one by
 * one or folded), and the chosen line's article history. Binds to {@link AuditViewModel}.
 */
final class AuditPage extends VBox {

    AuditPage(AuditViewModel model) {
        super(10);
        ComboBox<Editor> person = new ComboBox<>(model.people());
        person.setId("audit-person");
        person.setAccessibleText(Messages.text("dashboard.audit.person.accessible"));
        person.setPromptText(Messages.text("dashboard.audit.anyone"));
        person.setCellFactory(v -> personCell(Messages.text("dashboard.audit.anyone")));
        person.setButtonCell(personCell(Messages.text("dashboard.audit.anyone")));
        person.valueProperty().bindBidirectional(model.personProperty());
        Button anyone = new Button(null, new FontIcon(Feather.X));
        anyone.setId("audit-anyone");
        anyone.setAccessibleText(Messages.text("dashboard.audit.anyone.accessible"));
        anyone.setTooltip(new Tooltip(Messages.text("dashboard.audit.anyone.accessible")));
        anyone.getStyleClass().addAll(Styles.BUTTON_ICON, Styles.FLAT);
        anyone.visibleProperty().bind(model.personProperty().isNotNull());
        anyone.managedProperty().bind(anyone.visibleProperty());
        anyone.setOnAction(e -> model.personProperty().set(null));
        TextField article = new TextField();
        article.setId("audit-article");
        article.setPromptText(Messages.text("dashboard.audit.article.prompt"));
        article.setAccessibleText(Messages.text("dashboard.audit.article.prompt"));
        article.setPrefColumnCount(16);
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
        CheckBox eachRenewal = new CheckBox(Messages.text("dashboard.audit.eachRenewal"));
        eachRenewal.setId("audit-each-renewal");
        eachRenewal.setTooltip(new Tooltip(Messages.text("dashboard.audit.eachRenewal.tooltip")));
        eachRenewal.selectedProperty().bindBidirectional(model.eachRenewalProperty());
        Button search = new Button(Messages.text("dashboard.audit.search"), new FontIcon(Feather.SEARCH));
        search.setId("audit-search");
        search.setDefaultButton(false);
        search.setOnAction(e -> model.search());
        article.setOnAction(e -> model.search());
        Label summary = new Label();
        summary.setId("audit-summary");
        summary.getStyleClass().add(Styles.TEXT_MUTED);
        summary.textProperty().bind(model.summaryProperty());
        summary.setMinWidth(Region.USE_PREF_SIZE);
        HBox filters = new HBox(10, new HBox(2, person, anyone), article, action, range, eachRenewal, search, summary);
        filters.setAlignment(Pos.CENTER_LEFT);

        TableView<AuditLog.Entry> audit = new TableView<>();
        audit.setId("audit");
        audit.setItems(model.entries());
        audit.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        audit.getColumns().setAll(List.of(
                textColumn(Messages.text("dashboard.audit.when.column"), 180, e -> Formats.localDayClock(e.at(), model.zone())),
                textColumn(Messages.text("dashboard.holders.number.column"), 60,
                        e -> e.articleId() == null ? "" : e.articleId().toString()),
                textColumn(Messages.text("dashboard.audit.article.column"), 260, model::titleOf),
                textColumn(Messages.text("dashboard.audit.action.column"), 160, model::actionOf),
                textColumn(Messages.text("dashboard.audit.by.column"), 130, e -> model.personName(e.actor())),
                textColumn(Messages.text("dashboard.audit.holder.column"), 200, e -> model.holdersOf(e.oldOwner(), e.newOwner())),
                textColumn(Messages.text("dashboard.audit.detail.column"), 320, model::detailOf)));
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
                textColumn(Messages.text("dashboard.audit.when.column"), 180, h -> Formats.localDayClock(h.at(), model.zone())),
                textColumn(Messages.text("dashboard.audit.action.column"), 160, h -> DataWords.action(h.action())),
                textColumn(Messages.text("dashboard.audit.by.column"), 130, h -> model.personName(h.actor())),
                textColumn(Messages.text("dashboard.audit.holder.column"), 200, h -> model.holdersOf(h.oldOwner(), h.newOwner())),
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
                setText(empty ? null : a == null ? Messages.text("dashboard.audit.anyAction") : DataWords.action(a));
            }
        };
    }

    private static ListCell<Editor> personCell(String whenEmpty) {
        return new ListCell<>() {
            @Override
            protected void updateItem(Editor e, boolean empty) {
                super.updateItem(e, empty);
                setText(empty || e == null ? whenEmpty : Messages.text("dashboard.actions.editorWithId", e.displayName(), e.id()));
            }
        };
    }
}
