package org.copydesk.ui.supervisor;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import org.copydesk.review.ArticleDetail;
import org.copydesk.review.AuditLog;
import org.copydesk.review.Editor;
import org.copydesk.review.HistoryEntry;
import org.copydesk.review.ReviewSession;
import org.copydesk.ui.common.DataWords;
import org.copydesk.ui.common.Formats;
import org.copydesk.ui.common.Messages;

/**
 * The "Audit" tab: the event log filtered by person, article (number or words of its title),
 * action and time, renewals folded to one line per lease unless asked for one by one, and one
 * article's whole history. The export writes the lines as shown.
 *
 * <p>The person, action, time and renewal filters search as soon as they change; the article
 * field on Enter (or Search), since it is typed.
 */
public final class AuditViewModel {

    /** The time spans the audit can look back over. */
    public enum AuditRange {
        LAST_HOUR("dashboard.audit.range.lastHour", Duration.ofHours(1)),
        TODAY("dashboard.audit.range.today", null),
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
    private final ObjectProperty<Editor> person = new SimpleObjectProperty<>();
    private final StringProperty article = new SimpleStringProperty("");
    private final ObjectProperty<String> action = new SimpleObjectProperty<>();
    private final ObjectProperty<AuditRange> range = new SimpleObjectProperty<>(AuditRange.LAST_DAY);
    private final BooleanProperty eachRenewal = new SimpleBooleanProperty();
    private final ObservableList<AuditLog.Entry> entries = FXCollections.observableArrayList();
    private final StringProperty summary = new SimpleStringProperty("");
    private final StringProperty error = new SimpleStringProperty("");
    private final ObservableList<HistoryEntry> history = FXCollections.observableArrayList();
    private final StringProperty historyTitle = new SimpleStringProperty(NO_HISTORY);

    AuditViewModel(DashboardContext context) {
        this.context = context;
        article.addListener((o, a, b) -> error.set(""));
        person.addListener((o, a, b) -> search());
        action.addListener((o, a, b) -> search());
        range.addListener((o, a, b) -> search());
        eachRenewal.addListener((o, a, b) -> search());
    }

    public void search() {
        String a = article.get() == null ? "" : article.get().strip();
        AuditLog.Query query = AuditLog.Query.recent(AUDIT_LIMIT).withPerson(person.get() == null ? null : person.get().id())
                .withAction(action.get()).withEachRenewal(eachRenewal.get());
        // a number is the article's number; anything else, words of its title
        boolean number = !a.isEmpty() && a.length() <= 18 && a.chars().allMatch(Character::isDigit);
        query = number ? query.withArticle(Long.valueOf(a)) : query.withTitleWords(a);
        AuditRange r = range.get() == null ? AuditRange.ALL : range.get();
        query = r == AuditRange.TODAY ? query.today(context.zone) : query.within(r.span());
        error.set("");
        summary.set(Messages.text("dashboard.audit.searching"));
        AuditLog log = context.services.auditLog();
        AuditLog.Query asked = query;
        context.tasks.run("search audit", () -> log.search(asked), found -> {
            context.reached();
            entries.setAll(found);
            summary.set(describe(found));
        }, failure -> {
            summary.set("");
            context.failed(failure, error);
        });
    }

    /** "120 lines (340 renewals folded)", or the newest lines when there are more. */
    private static String describe(List<AuditLog.Entry> found) {
        String lines = found.size() >= AUDIT_LIMIT ? Messages.text("dashboard.audit.newestEvents", found.size())
                : Messages.text("common.count.events", found.size());
        int folded = found.stream().filter(AuditLog.Entry::folded).mapToInt(AuditLog.Entry::count).sum();
        return folded == 0 ? lines : Messages.text("dashboard.audit.withFolded", lines, folded);
    }

    /** Shows the whole history of the article the line is about. */
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

    // --- how a line reads ------------------------------------------------------------------------

    /** "renew" or, for folded renewals, "renewed 24 times". */
    public String actionOf(AuditLog.Entry e) {
        return e.folded() ? Messages.text("dashboard.audit.renewedTimes", e.count()) : DataWords.action(e.action());
    }

    /** The detail, or for folded renewals from when to when. */
    public String detailOf(AuditLog.Entry e) {
        if (e.folded()) {
            return Messages.text("dashboard.audit.renewalsSpan", Formats.localClock(e.firstAt(), context.zone),
                    Formats.localClock(e.at(), context.zone));
        }
        return e.detail() == null ? "" : e.detail();
    }

    /** The article's title, or a word that says it is gone. */
    public String titleOf(AuditLog.Entry e) {
        if (e.articleId() == null) {
            return "";
        }
        return e.title() == null ? Messages.text("dashboard.audit.articleGone") : e.title();
    }

    /** Who held it before and after, by name: "Ann Kowalski → Cat Diaz", or one name when it stayed. */
    public String holdersOf(String oldOwner, String newOwner) {
        if (oldOwner == null && newOwner == null) {
            return "";
        }
        if (oldOwner != null && oldOwner.equals(newOwner)) {
            return context.personName(oldOwner);
        }
        return (oldOwner == null ? "\u2014" : context.personName(oldOwner)) + " \u2192 "
                + (newOwner == null ? "\u2014" : context.personName(newOwner));
    }

    public String personName(String id) {
        return context.personName(id);
    }

    /** The lines as shown (renewals folded or not), for the export. */
    TableSnapshot snapshot() {
        return new TableSnapshot(List.of("event", "at_utc", "first_at_utc", "count", "article", "title", "action", "actor",
                "old_owner", "new_owner", "detail"),
                entries.stream().map(e -> List.of(Long.toString(e.id()), String.valueOf(e.at()), String.valueOf(e.firstAt()),
                        Integer.toString(e.count()), e.articleId() == null ? "" : e.articleId().toString(), nz(e.title()), e.action(),
                        e.actor(), nz(e.oldOwner()), nz(e.newOwner()), e.folded() ? detailOf(e) : nz(e.detail()))).toList());
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }

    public java.time.ZoneId zone() {
        return context.zone;
    }

    /** One person (actor, previous or new holder); null for anyone. */
    public ObjectProperty<Editor> personProperty() {
        return person;
    }

    /** Everyone the person filter offers, kept current. */
    public ObservableList<Editor> people() {
        return context.people();
    }

    /** An article's number, or words of its title. */
    public StringProperty articleProperty() {
        return article;
    }

    public ObjectProperty<String> actionProperty() {
        return action;
    }

    public ObjectProperty<AuditRange> rangeProperty() {
        return range;
    }

    /** Every renewal on its own line; off by default (one line per lease). */
    public BooleanProperty eachRenewalProperty() {
        return eachRenewal;
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
