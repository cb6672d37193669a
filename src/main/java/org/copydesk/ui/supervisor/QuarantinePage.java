package org.copydesk.ui.supervisor;

import static org.copydesk.ui.supervisor.Tables.middleCutColumn;
import static org.copydesk.ui.supervisor.Tables.muted;
import static org.copydesk.ui.supervisor.Tables.textColumn;

import atlantafx.base.theme.Styles;
import java.util.List;
import javafx.collections.ObservableList;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.TableView;
import javafx.scene.control.TextArea;
import javafx.scene.control.TextField;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import javafx.util.StringConverter;
import org.copydesk.review.ArticleQuarantine;
import org.copydesk.review.Desk;
import org.copydesk.review.ImportRejects;
import org.copydesk.ui.common.Messages;
import org.kordamp.ikonli.feather.Feather;
import org.kordamp.ikonli.javafx.FontIcon;

/**
 * The "Quarantine" page: articles set aside and rows imports refused, each with a form to correct
 * it and put it back; a refused correction says why under its form. Binds to {@link QuarantineViewModel}.
 */
final class QuarantinePage extends VBox {

    QuarantinePage(QuarantineViewModel model) {
        super(10);
        TableView<ArticleQuarantine.Entry> quarantined = new TableView<>();
        quarantined.setId("quarantined");
        quarantined.setItems(model.quarantined());
        quarantined.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        quarantined.getColumns().setAll(List.of(
                textColumn(Messages.text("dashboard.holders.number.column"), 60, q -> Long.toString(q.id())),
                textColumn(Messages.text("dashboard.quarantine.desk.column"), 90, q -> model.deskName(q.desk())),
                textColumn(Messages.text("dashboard.quarantine.title.column"), 300, ArticleQuarantine.Entry::title),
                textColumn(Messages.text("dashboard.quarantine.sentBack.column"), 80, q -> Integer.toString(q.attempts())),
                textColumn(Messages.text("dashboard.quarantine.why.column"), 300, q -> q.reason() == null ? "" : q.reason())));
        quarantined.setPlaceholder(muted(Messages.text("dashboard.quarantine.articles.empty")));
        quarantined.getSelectionModel().selectedItemProperty().addListener((o, a, q) -> model.selectedArticleProperty().set(q));
        model.selectedArticleProperty().addListener((o, a, q) -> {
            if (q == null) {
                quarantined.getSelectionModel().clearSelection();
            } else if (quarantined.getSelectionModel().getSelectedItem() != q) {
                quarantined.getSelectionModel().select(q);
            }
        });
        TextField title = new TextField();
        title.setId("corrected-title");
        title.setPromptText(Messages.text("dashboard.quarantine.title.prompt"));
        title.textProperty().bindBidirectional(model.correctedTitleProperty());
        TextField note = new TextField();
        note.setId("requeue-note");
        note.setPromptText(Messages.text("dashboard.quarantine.note.prompt"));
        note.textProperty().bindBidirectional(model.requeueNoteProperty());
        Button requeue = new Button(Messages.text("dashboard.quarantine.requeueArticle"), new FontIcon(Feather.CORNER_UP_LEFT));
        requeue.setId("requeue-article");
        requeue.getStyleClass().add(Styles.ACCENT);
        requeue.disableProperty().bind(model.selectedArticleProperty().isNull().or(model.actingProperty()));
        requeue.setOnAction(e -> model.requeueSelectedArticle());
        VBox articleForm = form(Messages.text("dashboard.quarantine.articleForm.title"), title, note, requeue,
                Tables.inlineError("requeue-article-error", model.articleErrorProperty()));
        articleForm.disableProperty().bind(model.selectedArticleProperty().isNull());

        TableView<ImportRejects.Reject> rejects = new TableView<>();
        rejects.setId("import-rejects");
        rejects.setItems(model.importRejects());
        rejects.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        rejects.getColumns().setAll(List.of(
                middleCutColumn(Messages.text("dashboard.quarantine.source.column"), 220, r -> r.sourceName() + ":" + r.lineNumber()),
                textColumn(Messages.text("dashboard.quarantine.whyWasRefused.column"), 260, ImportRejects.Reject::reason),
                textColumn(Messages.text("dashboard.quarantine.rowAsImported.column"), 360, r -> r.rawText().replace('\n', ' '))));
        rejects.setPlaceholder(muted(Messages.text("dashboard.quarantine.rows.empty")));
        rejects.getSelectionModel().selectedItemProperty().addListener((o, a, r) -> model.selectedRejectProperty().set(r));
        model.selectedRejectProperty().addListener((o, a, r) -> {
            if (r == null) {
                rejects.getSelectionModel().clearSelection();
            } else if (rejects.getSelectionModel().getSelectedItem() != r) {
                rejects.getSelectionModel().select(r);
            }
        });
        GridPane row = rowFields(model.rowForm(), model.desks());
        Button requeueRow = new Button(Messages.text("dashboard.quarantine.requeueRow"), new FontIcon(Feather.CORNER_UP_LEFT));
        requeueRow.setId("requeue-row");
        requeueRow.getStyleClass().add(Styles.ACCENT);
        requeueRow.disableProperty().bind(model.selectedRejectProperty().isNull().or(model.actingProperty()));
        requeueRow.setOnAction(e -> model.requeueSelectedReject());
        Button discard = new Button(Messages.text("dashboard.quarantine.discard"), new FontIcon(Feather.TRASH_2));
        discard.setId("discard-row");
        discard.getStyleClass().add(Styles.FLAT);
        discard.disableProperty().bind(requeueRow.disableProperty());
        discard.setOnAction(e -> model.discardSelectedReject());
        VBox rowForm = form(Messages.text("dashboard.quarantine.rowForm.title"), row, new HBox(8, requeueRow, discard),
                Tables.inlineError("requeue-row-error", model.rowErrorProperty()));
        rowForm.disableProperty().bind(model.selectedRejectProperty().isNull());

        getChildren().addAll(Tables.inlineError("quarantine-error", model.loadErrorProperty()),
                sectionTitle(Messages.text("dashboard.quarantine.articles.title"), Messages.text("dashboard.quarantine.articles.hint")),
                split(quarantined, articleForm),
                sectionTitle(Messages.text("dashboard.quarantine.rows.title"), Messages.text("dashboard.quarantine.rows.hint")),
                split(rejects, rowForm));
        Tables.padded(this);
    }

    /** The refused row's fields, one per line: what the import read, to correct where it is wrong. */
    private static GridPane rowFields(RowCorrectionForm form, ObservableList<Desk> desks) {
        TextField externalId = formField("row-external-id", form.externalIdProperty(), "dashboard.quarantine.form.externalId.prompt");
        ComboBox<Desk> desk = new ComboBox<>(desks);
        desk.setId("row-desk");
        desk.setMaxWidth(Double.MAX_VALUE);
        desk.setPromptText(Messages.text("dashboard.quarantine.form.desk.prompt"));
        desk.setConverter(new StringConverter<>() {
            @Override
            public String toString(Desk d) {
                return RowCorrectionForm.describe(d);
            }

            @Override
            public Desk fromString(String text) {
                return null;
            }
        });
        desk.valueProperty().bindBidirectional(form.deskProperty());
        Label deskWas = new Label();
        deskWas.setId("row-desk-was");
        deskWas.setWrapText(true);
        deskWas.getStyleClass().addAll(Styles.TEXT_MUTED, Styles.TEXT_SMALL);
        deskWas.textProperty().bind(form.deskAsImportedProperty());
        deskWas.visibleProperty().bind(deskWas.textProperty().isNotEmpty());
        deskWas.managedProperty().bind(deskWas.visibleProperty());
        TextField title = formField("row-title", form.titleProperty(), "dashboard.quarantine.form.title.prompt");
        TextField byline = formField("row-byline", form.bylineProperty(), "dashboard.quarantine.form.byline.prompt");
        TextArea body = new TextArea();
        body.setId("row-body");
        body.setWrapText(true);
        body.setPrefRowCount(4);
        body.setPromptText(Messages.text("dashboard.quarantine.form.body.prompt"));
        body.textProperty().bindBidirectional(form.bodyProperty());
        TextField priority = formField("row-priority", form.priorityProperty(), "dashboard.quarantine.form.priority.prompt");
        priority.setPrefColumnCount(4);
        TextField availableAt = formField("row-available-at", form.availableAtProperty(), "dashboard.quarantine.form.availableAt.prompt");
        GridPane grid = new GridPane();
        grid.setHgap(8);
        grid.setVgap(6);
        int line = 0;
        for (Object[] f : new Object[][] {{"dashboard.quarantine.form.externalId", externalId},
                {"dashboard.quarantine.form.desk", new VBox(2, desk, deskWas)}, {"dashboard.quarantine.form.title", title},
                {"dashboard.quarantine.form.byline", byline}, {"dashboard.quarantine.form.body", body},
                {"dashboard.quarantine.form.priority", priority}, {"dashboard.quarantine.form.availableAt", availableAt}}) {
            Label label = new Label(Messages.text((String) f[0]));
            Node field = (Node) f[1];
            label.setLabelFor(field instanceof VBox box ? box.getChildren().get(0) : field);
            label.setMinWidth(Region.USE_PREF_SIZE);
            GridPane.setHgrow(field, Priority.ALWAYS);
            grid.addRow(line++, label, field);
        }
        return grid;
    }

    private static TextField formField(String id, javafx.beans.property.StringProperty value, String prompt) {
        TextField field = new TextField();
        field.setId(id);
        field.setPromptText(Messages.text(prompt));
        field.textProperty().bindBidirectional(value);
        return field;
    }

    private static HBox split(TableView<?> table, VBox form) {
        HBox.setHgrow(table, Priority.ALWAYS);
        HBox box = new HBox(10, table, form);
        VBox.setVgrow(box, Priority.ALWAYS);
        return box;
    }

    private static VBox form(String title, Node... content) {
        Label t = new Label(title);
        t.getStyleClass().add(Styles.TEXT_BOLD);
        VBox box = new VBox(8, t);
        box.getChildren().addAll(content);
        box.setPadding(new Insets(12));
        box.setPrefWidth(320);
        box.setMinWidth(280);
        box.getStyleClass().add("review-panel");
        return box;
    }

    private static Node sectionTitle(String title, String note) {
        Label t = new Label(title);
        t.getStyleClass().add(Styles.TITLE_4);
        Label n = new Label(note);
        n.getStyleClass().addAll(Styles.TEXT_MUTED, Styles.TEXT_SMALL);
        HBox box = new HBox(12, t, n);
        box.setAlignment(Pos.BASELINE_LEFT);
        return box;
    }

}
