package org.copydesk.ui.supervisor;

import java.util.ArrayList;
import java.util.List;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import org.copydesk.review.ArticleQuarantine;
import org.copydesk.review.Desk;
import org.copydesk.review.ImportRejects;
import org.copydesk.review.ReviewSession;
import org.copydesk.ui.common.Messages;
import org.copydesk.ui.common.Notice;

/**
 * The "Quarantine" tab: articles set aside as unreviewable, and rows imports refused. Each can be
 * corrected and put back in the queue (a refused row through a form with its fields, see
 * {@link RowCorrectionForm}); a refused row can also be discarded. A correction that is refused
 * says why under its own form, and what was typed stays.
 */
public final class QuarantineViewModel {

    private record Quarantine(List<ArticleQuarantine.Entry> articles, List<ImportRejects.Reject> rejects) {
    }

    private final DashboardContext context;
    private final Runnable afterRequeue;
    private final ObservableList<ArticleQuarantine.Entry> quarantined = FXCollections.observableArrayList();
    private final ObjectProperty<ArticleQuarantine.Entry> selectedArticle = new SimpleObjectProperty<>();
    private final StringProperty correctedTitle = new SimpleStringProperty("");
    private final StringProperty requeueNote = new SimpleStringProperty("");
    private final StringProperty articleError = new SimpleStringProperty("");
    private final ObservableList<ImportRejects.Reject> rejects = FXCollections.observableArrayList();
    private final ObjectProperty<ImportRejects.Reject> selectedReject = new SimpleObjectProperty<>();
    private final RowCorrectionForm rowForm = new RowCorrectionForm();
    private final ObservableList<Desk> desks = FXCollections.observableArrayList();
    private final StringProperty rowError = new SimpleStringProperty("");
    private final StringProperty loadError = new SimpleStringProperty("");
    private final BooleanProperty acting = new SimpleBooleanProperty();

    /** @param afterRequeue what else to reload once an article is back in the queue (the queue's numbers) */
    QuarantineViewModel(DashboardContext context, Runnable afterRequeue) {
        this.context = context;
        this.afterRequeue = afterRequeue;
        selectedArticle.addListener((o, a, e) -> {
            correctedTitle.set(e == null ? "" : e.title());
            requeueNote.set("");
            articleError.set("");
        });
        // the form shows the row's fields whatever the file was: a CSV row and a JSON row alike
        selectedReject.addListener((o, a, r) -> {
            desks.setAll(context.desks());
            rowForm.fill(r, desks);
            rowError.set("");
        });
    }

    public void refresh() {
        ReviewSession services = context.services;
        context.tasks.run("load quarantine", () -> new Quarantine(services.quarantine().list(),
                services.importRejects().listOpen(500)), q -> {
                    context.reached();
                    loadError.set("");
                    quarantined.setAll(q.articles());
                    rejects.setAll(q.rejects());
                }, failure -> context.failed(failure, loadError));
    }

    /** Puts the selected quarantined article back in the queue, with the corrected title if changed. */
    public void requeueSelectedArticle() {
        ArticleQuarantine.Entry entry = selectedArticle.get();
        if (entry == null || acting.get()) {
            return;
        }
        String title = correctedTitle.get() == null || correctedTitle.get().strip().equals(entry.title()) ? null
                : correctedTitle.get().strip();
        String note = requeueNote.get() == null || requeueNote.get().isBlank() ? "requeued from the dashboard"
                : requeueNote.get().strip();
        String supervisor = context.supervisor.id();
        ArticleQuarantine quarantine = context.services.quarantine();
        acting.set(true);
        articleError.set("");
        context.tasks.run("requeue article", () -> {
            quarantine.requeue(entry.id(), supervisor, title, null, note);
            return true;
        }, ok -> {
            acting.set(false);
            context.post(Notice.Kind.SUCCESS, Messages.text("dashboard.quarantine.requeued", title == null ? entry.title() : title));
            selectedArticle.set(null);
            refresh();
            afterRequeue.run();
        }, failure -> {
            acting.set(false);
            context.failed(failure, articleError);
        });
    }

    /** Creates the article from the corrected import row. */
    public void requeueSelectedReject() {
        ImportRejects.Reject reject = selectedReject.get();
        if (reject == null || acting.get()) {
            return;
        }
        java.util.Map<String, String> fields = rowForm.fields();
        String supervisor = context.supervisor.id();
        ImportRejects importRejects = context.services.importRejects();
        acting.set(true);
        rowError.set("");
        context.tasks.run("requeue import row", () -> importRejects.requeue(reject.id(), fields, supervisor), id -> {
            acting.set(false);
            context.post(Notice.Kind.SUCCESS,
                    Messages.text("dashboard.quarantine.rowRequeued", reject.lineNumber(), reject.sourceName(), id));
            selectedReject.set(null);
            refresh();
            afterRequeue.run();
        }, failure -> {
            acting.set(false);
            context.failed(failure, rowError);
        });
    }

    public void discardSelectedReject() {
        ImportRejects.Reject reject = selectedReject.get();
        if (reject == null || acting.get()) {
            return;
        }
        ImportRejects importRejects = context.services.importRejects();
        acting.set(true);
        rowError.set("");
        context.tasks.run("discard import row", () -> {
            importRejects.discard(reject.id());
            return true;
        }, ok -> {
            acting.set(false);
            context.post(Notice.Kind.INFO, Messages.text("dashboard.quarantine.rowDiscarded", reject.lineNumber(), reject.sourceName()));
            selectedReject.set(null);
            refresh();
        }, failure -> {
            acting.set(false);
            context.failed(failure, rowError);
        });
    }

    TableSnapshot snapshot() {
        List<List<String>> rows = new ArrayList<>();
        quarantined.forEach(q -> rows.add(List.of("article", Long.toString(q.id()), context.deskName(q.desk()), q.title(),
                q.reason() == null ? "" : q.reason(), String.valueOf(q.since()))));
        rejects.forEach(r -> rows.add(List.of("import row", Long.toString(r.id()), r.sourceName() + ":" + r.lineNumber(),
                r.rawText(), r.reason(), String.valueOf(r.createdAt()))));
        return new TableSnapshot(List.of("kind", "id", "desk_or_source", "title_or_raw_text", "reason", "since_utc"), rows);
    }

    public String deskName(String id) {
        return context.deskName(id);
    }

    public ObservableList<ArticleQuarantine.Entry> quarantined() {
        return quarantined;
    }

    public ObjectProperty<ArticleQuarantine.Entry> selectedArticleProperty() {
        return selectedArticle;
    }

    public StringProperty correctedTitleProperty() {
        return correctedTitle;
    }

    public StringProperty requeueNoteProperty() {
        return requeueNote;
    }

    /** Why the article could not be put back, under its form. */
    public ReadOnlyStringProperty articleErrorProperty() {
        return articleError;
    }

    public ObservableList<ImportRejects.Reject> importRejects() {
        return rejects;
    }

    public ObjectProperty<ImportRejects.Reject> selectedRejectProperty() {
        return selectedReject;
    }

    /** The selected refused row's fields, to correct. */
    public RowCorrectionForm rowForm() {
        return rowForm;
    }

    /** The desks a corrected row can go to. */
    public ObservableList<Desk> desks() {
        return desks;
    }

    /** Why the corrected row was refused, under its form. */
    public ReadOnlyStringProperty rowErrorProperty() {
        return rowError;
    }

    /** Why the lists could not be read (a lost connection shows in the banner instead). */
    public ReadOnlyStringProperty loadErrorProperty() {
        return loadError;
    }

    public ReadOnlyBooleanProperty actingProperty() {
        return acting;
    }
}
