package org.copydesk.ui.supervisor;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import org.copydesk.review.ArticleDetail;
import org.copydesk.review.AuditLog;
import org.copydesk.review.HistoryEntry;
import org.copydesk.review.ReviewSession;
import org.copydesk.ui.common.DataWords;
import org.copydesk.ui.common.Messages;

/** The "Audit" tab: the event log filtered by editor, article, action and time, and one article's whole history. */
public final class AuditViewModel {

    /** The time spans the audit can look back over. */
    public enum AuditRange {
        LAST_HOUR("dashboard.audit.range.lastHour", Duration.ofHours(1)),
        LAST_DAY("dashboard.audit.range.lastDay", Duration.ofHours(24)),
        LAST_WEEK("dashboard.audit.range.lastWeek", Duration.ofDays(7)), ALL("dashboard.audit.range.all", null);

        private final String label;
        private final Duration span;

        AuditRange(String label, Duration span) {
            this.label = label;
            this.span = span;
        }

        public Duration span() {
            return span;
        }

        @Override
        public String toString() {
            return Messages.text(label);
        }
    }

    private record History(Optional<ArticleDetail> article, List<HistoryEntry> events) {
    }

    static final int AUDIT_LIMIT = 2_000;
    private static final String NO_HISTORY = Messages.text("dashboard.audit.noHistory");

    private final DashboardContext context;
    private final StringProperty editor = new SimpleStringProperty("");
    private final StringProperty article = new SimpleStringProperty("");
    private final ObjectProperty<String> action = new SimpleObjectProperty<>();
    private final ObjectProperty<AuditRange> range = new SimpleObjectProperty<>(AuditRange.LAST_DAY);
    private final ObservableList<AuditLog.Entry> entries = FXCollections.observableArrayList();
    private final StringProperty summary = new SimpleStringProperty("");
    private final StringProperty error = new SimpleStringProperty("");
    private final ObservableList<HistoryEntry> history = FXCollections.observableArrayList();
    private final StringProperty historyTitle = new SimpleStringProperty(NO_HISTORY);

    AuditViewModel(DashboardContext context) {
        this.context = context;
        article.addListener((o, a, b) -> error.set(""));
    }

    public void search() {
        Long articleId = null;
        String a = article.get() == null ? "" : article.get().strip();
        if (!a.isEmpty()) {
            try {
                articleId = Long.valueOf(a);
            } catch (NumberFormatException e) {
                error.set(Messages.text("dashboard.audit.articleNotANumber"));
                return;
            }
        }
        error.set("");
        AuditLog.Query query = new AuditLog.Query(editor.get(), articleId, action.get(),
                range.get() == null ? null : range.get().span(), AUDIT_LIMIT);
        summary.set(Messages.text("dashboard.audit.searching"));
        AuditLog log = context.services.auditLog();
        context.tasks.run("search audit", () -> log.search(query), found -> {
            context.reached();
            entries.setAll(found);
            summary.set(found.size() >= AUDIT_LIMIT
                    ? Messages.text("dashboard.audit.newestEvents", found.size())
                    : Messages.text("common.count.events", found.size()));
        }, failure -> {
            summary.set("");
            context.failed(failure, error);
        });
    }

    /** Shows the whole history of the article the event is about. */
    public void showHistory(AuditLog.Entry entry) {
        if (entry == null || entry.articleId() == null) {
            history.clear();
            historyTitle.set(NO_HISTORY);
            return;
        }
        long id = entry.articleId();
        ReviewSession services = context.services;
        context.tasks.run("article history", () -> new History(services.queue().article(id), services.history().of(id)), h -> {
            String events = Messages.text("common.count.events", h.events().size());
            historyTitle.set(h.article().map(d -> Messages.text("dashboard.audit.historyTitle", Long.toString(id), d.title(),
                    context.deskName(d.desk()), DataWords.status(d.status()), events))
                    .orElse(Messages.text("dashboard.audit.historyTitleDeleted", Long.toString(id), events)));
            history.setAll(h.events());
        }, failure -> context.failed(failure, historyTitle));
    }

    TableSnapshot snapshot() {
        return new TableSnapshot(List.of("event", "at_utc", "article", "action", "actor", "old_owner", "new_owner", "detail"),
                entries.stream().map(e -> List.of(Long.toString(e.id()), String.valueOf(e.at()),
                        e.articleId() == null ? "" : e.articleId().toString(), e.action(), e.actor(), nz(e.oldOwner()),
                        nz(e.newOwner()), nz(e.detail()))).toList());
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }

    public java.time.ZoneId zone() {
        return context.zone;
    }

    public StringProperty editorProperty() {
        return editor;
    }

    public StringProperty articleProperty() {
        return article;
    }

    public ObjectProperty<String> actionProperty() {
        return action;
    }

    public ObjectProperty<AuditRange> rangeProperty() {
        return range;
    }

    public List<String> actions() {
        return AuditLog.ACTIONS;
    }

    public ObservableList<AuditLog.Entry> entries() {
        return entries;
    }

    public ReadOnlyStringProperty summaryProperty() {
        return summary;
    }

    /** What is wrong with the filters or the search, said beside them. */
    public ReadOnlyStringProperty errorProperty() {
        return error;
    }

    public ObservableList<HistoryEntry> history() {
        return history;
    }

    public ReadOnlyStringProperty historyTitleProperty() {
        return historyTitle;
    }
}
