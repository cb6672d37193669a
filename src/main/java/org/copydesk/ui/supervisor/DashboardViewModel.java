package org.copydesk.ui.supervisor;

import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.LongProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyLongProperty;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleLongProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import org.copydesk.review.ArticleQuarantine;
import org.copydesk.review.AuditLog;
import org.copydesk.review.ConnectionTrouble;
import org.copydesk.review.Desk;
import org.copydesk.review.Editor;
import org.copydesk.review.HistoryEntry;
import org.copydesk.review.ImportRejects;
import org.copydesk.review.QueueStatistics;
import org.copydesk.review.ReviewServices;
import org.copydesk.review.Supervision;
import org.copydesk.review.Supervision.ActiveLease;
import org.copydesk.review.imports.CorrectionTemplate;
import org.copydesk.ui.common.Formats;
import org.copydesk.ui.common.Notice;
import org.copydesk.ui.common.TaskExecutor;
import org.copydesk.ui.common.Ticker;

/**
 * Everything the supervisor's dashboard shows and does, without a single control.
 *
 * <p>"Who holds what" is kept live from the event log: every refresh asks which articles had
 * events since the last one and re-reads only those leases, so a refresh costs what changed, not
 * what is held. Countdowns and idleness tick locally from the server's times (see
 * {@link HolderRow}); rows whose lease runs out leave the table on the tick, because a lease ends
 * at its expiry whether or not an event says so. A full reload every minute is the safety net for
 * what the log cannot show in id order (a transaction that committed after a later id was read).
 *
 * <p>All database work goes through {@link TaskExecutor}; every method here runs on the FX thread.
 */
public final class DashboardViewModel implements AutoCloseable {

    /** Timings and thresholds; {@link #defaults()} for the app. */
    public record Settings(Duration tick, Duration refreshInterval, Duration fullReloadInterval, Duration statsInterval,
                           Duration idleAfter, Duration offlineAfter, int eventOverlap, Duration noticeLifetime) {
        public static Settings defaults() {
            return new Settings(Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(60), Duration.ofSeconds(30),
                    Duration.ofMinutes(3), Duration.ofMinutes(30), 500, Duration.ofSeconds(8));
        }
    }

    /** What one refresh cost: database time on a worker thread, and update time on the FX thread. */
    public record RefreshCost(boolean full, int articlesAsked, int rowsChanged, int rowsShown, long databaseNanos,
                              long applyNanos) {
    }

    /** One group in the side list: a holder or a desk, with how many leases it has. */
    public record GroupSummary(String key, String label, int leases) {
        @Override
        public String toString() {
            return label + " (" + leases + ")";
        }
    }

    /** A desk's counts as the queue-health table shows them. */
    public record DeskRow(String desk, String name, int waitingNow, int scheduled, int inReview, int sentBack,
                          int quarantined, int finishedToday, String oldestWaiting) {
    }

    /** A person as the editors table shows them. */
    public record EditorRow(String id, String name, String role, Presence presence, String lastSeen, int held,
                            int capacity, int finishedToday) {
        public String load() {
            return held + " / " + capacity;
        }
    }

    /** Counts per hour for a chart: one label per hour (local clock), one list of counts per series. */
    public record HourlyChart(List<String> hours, Map<String, List<Integer>> series) {
    }

    /** The time spans the audit can look back over. */
    public enum AuditRange {
        LAST_HOUR("Last hour", Duration.ofHours(1)), LAST_DAY("Last 24 hours", Duration.ofHours(24)),
        LAST_WEEK("Last 7 days", Duration.ofDays(7)), ALL("All time", null);

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
            return label;
        }
    }

    private record Delta(boolean full, Set<Long> asked, List<ActiveLease> leases, long latestEventId, long databaseNanos) {
    }

    private record Stats(List<Supervision.DeskHealth> health, QueueStatistics.Hourly finished,
                         QueueStatistics.Hourly expired, List<QueueStatistics.EditorLoad> editors) {
    }

    private record Quarantine(List<ArticleQuarantine.Entry> articles, List<ImportRejects.Reject> rejects) {
    }

    static final int AUDIT_LIMIT = 2_000;

    private final ReviewServices services;
    private final TaskExecutor tasks;
    private final Ticker ticker;
    private final Editor supervisor;
    private final Settings settings;
    private final ZoneId zone;

    // who holds what
    private final Map<Long, HolderRow> byId = new HashMap<>();
    /**
     * Every active lease in display order. A plain array, merged linearly on each change, and the
     * table's list replaced with one {@code setAll}: with 10,000 rows, FilteredList and SortedList
     * spend O(rows) per removed row, which made a refresh of a few hundred changes take a quarter
     * of a second on the FX thread (see docs/benchmarks.md).
     */
    private final List<HolderRow> ordered = new ArrayList<>();
    private final ObservableList<HolderRow> shown = FXCollections.observableArrayList();
    private final ObservableList<HolderRow> shownReadOnly = FXCollections.unmodifiableObservableList(shown);
    private final ObjectProperty<HolderSort> sortKey = new SimpleObjectProperty<>(HolderSort.TIME_LEFT);
    private final BooleanProperty sortAscending = new SimpleBooleanProperty(true);
    private final StringProperty sortDescription = new SimpleStringProperty(HolderSort.TIME_LEFT.describe(true));
    private Comparator<HolderRow> order;
    private Predicate<HolderRow> filter = r -> true;
    private final LongProperty clock = new SimpleLongProperty();
    private final StringProperty search = new SimpleStringProperty("");
    private final ObjectProperty<Grouping> grouping = new SimpleObjectProperty<>(Grouping.NONE);
    private final ObjectProperty<GroupSummary> groupFilter = new SimpleObjectProperty<>();
    private final ObservableList<GroupSummary> groups = FXCollections.observableArrayList();
    private final ObjectProperty<HolderRow> selected = new SimpleObjectProperty<>();
    private final ObservableList<Editor> reassignCandidates = FXCollections.observableArrayList();
    private final ObjectProperty<Editor> reassignTo = new SimpleObjectProperty<>();
    private final StringProperty reason = new SimpleStringProperty("");
    private final StringProperty capacityWarning = new SimpleStringProperty("");
    private final BooleanProperty acting = new SimpleBooleanProperty();
    private final StringProperty holdersSummary = new SimpleStringProperty("Loading\u2026");
    private final StringProperty holdersEmptyText = new SimpleStringProperty("Loading\u2026");
    private final ObjectProperty<RefreshCost> lastRefresh = new SimpleObjectProperty<>();
    private final BooleanBinding canAct;
    private final BooleanBinding canForceRelease;
    private final BooleanBinding canReassign;

    // queue health, charts, editors
    private final ObservableList<DeskRow> deskRows = FXCollections.observableArrayList();
    private final ObjectProperty<HourlyChart> finishedChart = new SimpleObjectProperty<>(new HourlyChart(List.of(), Map.of()));
    private final ObjectProperty<HourlyChart> expiredChart = new SimpleObjectProperty<>(new HourlyChart(List.of(), Map.of()));
    private final ObservableList<EditorRow> editorRows = FXCollections.observableArrayList();

    // audit
    private final StringProperty auditEditor = new SimpleStringProperty("");
    private final StringProperty auditArticle = new SimpleStringProperty("");
    private final ObjectProperty<String> auditAction = new SimpleObjectProperty<>();
    private final ObjectProperty<AuditRange> auditRange = new SimpleObjectProperty<>(AuditRange.LAST_DAY);
    private final ObservableList<AuditLog.Entry> auditEntries = FXCollections.observableArrayList();
    private final StringProperty auditSummary = new SimpleStringProperty("");
    private final ObservableList<HistoryEntry> articleHistory = FXCollections.observableArrayList();
    private final StringProperty historyTitle = new SimpleStringProperty("Select an event to see its article's full history.");

    // quarantine
    private final ObservableList<ArticleQuarantine.Entry> quarantined = FXCollections.observableArrayList();
    private final ObjectProperty<ArticleQuarantine.Entry> selectedQuarantined = new SimpleObjectProperty<>();
    private final StringProperty correctedTitle = new SimpleStringProperty("");
    private final StringProperty requeueNote = new SimpleStringProperty("");
    private final ObservableList<ImportRejects.Reject> importRejects = FXCollections.observableArrayList();
    private final ObjectProperty<ImportRejects.Reject> selectedReject = new SimpleObjectProperty<>();
    private final StringProperty correctedRow = new SimpleStringProperty("");

    // everywhere
    private final ObservableList<Notice> notices = FXCollections.observableArrayList();
    private final BooleanProperty offline = new SimpleBooleanProperty();
    private final StringProperty banner = new SimpleStringProperty("");

    private final Map<String, String> deskNames = new HashMap<>();
    private final List<Editor> editors = new ArrayList<>();
    private final List<AutoCloseable> timers = new ArrayList<>();
    private final ImportViewModel imports;
    private long cursor;
    private boolean refreshing;
    private boolean loadingStats;
    private long lastRefreshNanos;
    private long lastFullNanos;
    private long lastStatsNanos;
    private long nextExpiryNanos = Long.MAX_VALUE;
    private boolean loaded;
    private Runnable pendingOverride;

    public DashboardViewModel(ReviewServices services, TaskExecutor tasks, Ticker ticker, Editor supervisor,
                              Settings settings, ZoneId zone) {
        this.services = services;
        this.tasks = tasks;
        this.ticker = ticker;
        this.supervisor = supervisor;
        this.settings = settings;
        this.zone = zone;
        clock.set(ticker.nanoTime());
        order = comparatorFor(Grouping.NONE, HolderSort.TIME_LEFT, true);
        canAct = Bindings.createBooleanBinding(() -> selected.get() != null && !acting.get(), selected, acting);
        canForceRelease = Bindings.createBooleanBinding(() -> canAct.get() && !reason.get().isBlank(), canAct, reason);
        canReassign = Bindings.createBooleanBinding(() -> canAct.get() && reassignTo.get() != null, canAct, reassignTo);
        search.addListener((o, a, b) -> updateFilter());
        groupFilter.addListener((o, a, b) -> updateFilter());
        grouping.addListener((o, a, g) -> {
            reorder();
            groupFilter.set(null); // re-filters and shows
            updateGroups();
            showRows();
        });
        selected.addListener((o, a, row) -> onSelected(row));
        selectedQuarantined.addListener((o, a, e) -> {
            correctedTitle.set(e == null ? "" : e.title());
            requeueNote.set("");
        });
        // the box takes JSON whatever the file was: a CSV row is shown as its fields in JSON
        selectedReject.addListener((o, a, r) -> correctedRow.set(r == null ? "" : CorrectionTemplate.jsonFor(r.rawText())));
        imports = new ImportViewModel(services, tasks, () -> {
            refreshQuarantine();
            refreshStats();
        }, n -> notices.add(0, Notice.of(n.kind(), n.text(), ticker.nanoTime())));
    }

    /** Imports from the dashboard, with progress. */
    public ImportViewModel imports() {
        return imports;
    }

    /** Loads everything once and starts the live refresh. */
    public void start() {
        timers.add(ticker.every(settings.tick(), this::tick));
        tasks.run("load desks and editors", () -> new Object[] {services.newsroom().desks(), services.newsroom().editors()},
                loadedPeople -> {
                    @SuppressWarnings("unchecked")
                    List<Desk> desks = (List<Desk>) loadedPeople[0];
                    @SuppressWarnings("unchecked")
                    List<Editor> people = (List<Editor>) loadedPeople[1];
                    desks.forEach(d -> deskNames.put(d.id(), d.name()));
                    editors.clear();
                    editors.addAll(people);
                    onSelected(selected.get());
                    reorder(); // desks sort and group by name, known only now
                    updateGroups();
                    showRows();
                }, this::onFailure);
        reloadAll();
        refreshStats();
        searchAudit();
        refreshQuarantine();
    }

    // --- who holds what: refresh --------------------------------------------------------------------

    /** Re-reads every active lease (and diffs it against the table). */
    public void reloadAll() {
        if (refreshing) {
            return;
        }
        refreshing = true;
        lastRefreshNanos = ticker.nanoTime();
        lastFullNanos = lastRefreshNanos;
        Set<Long> shown = new HashSet<>(byId.keySet());
        tasks.run("load active leases", () -> {
            long started = System.nanoTime();
            // the id first: whatever happens while the leases are read is seen again next time
            long latest = services.supervision().latestEventId();
            List<ActiveLease> all = services.supervision().activeLeases();
            Set<Long> asked = new HashSet<>(shown);
            all.forEach(a -> asked.add(a.articleId()));
            return new Delta(true, asked, all, latest, System.nanoTime() - started);
        }, this::apply, this::onRefreshFailed);
    }

    /** Reads the leases of the articles that had events since the last refresh. */
    public void refresh() {
        if (refreshing) {
            return;
        }
        if (!loaded) {
            reloadAll();
            return;
        }
        refreshing = true;
        lastRefreshNanos = ticker.nanoTime();
        // Ids are handed out at insert but become visible at commit, so an event can appear below the
        // cursor after the cursor passed it; looking a little behind the cursor catches those.
        long from = Math.max(0, cursor - settings.eventOverlap());
        tasks.run("refresh active leases", () -> {
            long started = System.nanoTime();
            Supervision.Changes changes = services.supervision().changesSince(from);
            List<ActiveLease> leases = services.supervision().activeLeases(changes.articleIds());
            return new Delta(false, changes.articleIds(), leases, changes.latestEventId(), System.nanoTime() - started);
        }, this::apply, this::onRefreshFailed);
    }

    private void apply(Delta delta) {
        long started = System.nanoTime();
        refreshing = false;
        loaded = true;
        back();
        long now = ticker.nanoTime();
        Map<Long, ActiveLease> fresh = new HashMap<>(delta.leases().size() * 2);
        delta.leases().forEach(a -> fresh.put(a.articleId(), a));
        Set<Long> gone = new HashSet<>();
        List<HolderRow> added = new ArrayList<>();
        for (Long id : delta.asked()) {
            HolderRow old = byId.get(id);
            ActiveLease now2 = fresh.get(id);
            if (now2 == null) {
                if (old != null) {
                    gone.add(id);
                    byId.remove(id);
                }
            } else if (old == null || !old.sameAs(now2)) {
                if (old != null) {
                    gone.add(id);
                }
                HolderRow row = new HolderRow(now2, now);
                byId.put(id, row);
                added.add(row);
            }
        }
        if (!gone.isEmpty()) {
            ordered.removeIf(r -> gone.contains(r.id()));
        }
        if (!added.isEmpty()) {
            merge(added);
        }
        cursor = Math.max(cursor, delta.latestEventId());
        if (!gone.isEmpty() || !added.isEmpty()) {
            afterHoldersChanged(now);
            showRows();
        }
        HolderRow sel = selected.get();
        if (sel != null && byId.get(sel.id()) != sel) {
            selected.set(byId.get(sel.id()));
        }
        lastRefresh.set(new RefreshCost(delta.full(), delta.asked().size(), gone.size() + added.size() - overlap(gone, added),
                ordered.size(), delta.databaseNanos(), System.nanoTime() - started));
        updateHoldersSummary();
    }

    private static int overlap(Set<Long> gone, List<HolderRow> added) {
        int n = 0;
        for (HolderRow r : added) {
            if (gone.contains(r.id())) {
                n++;
            }
        }
        return n;
    }

    private void onRefreshFailed(Throwable failure) {
        refreshing = false;
        onFailure(failure);
    }

    /** Adds rows in display order: the new ones sorted, then one linear merge. */
    private void merge(List<HolderRow> added) {
        added.sort(order);
        List<HolderRow> merged = new ArrayList<>(ordered.size() + added.size());
        int i = 0;
        int j = 0;
        while (i < ordered.size() || j < added.size()) {
            if (j >= added.size() || (i < ordered.size() && order.compare(ordered.get(i), added.get(j)) <= 0)) {
                merged.add(ordered.get(i++));
            } else {
                merged.add(added.get(j++));
            }
        }
        ordered.clear();
        ordered.addAll(merged);
    }

    /** The table's rows: the ordered leases that pass the filter, in one change. */
    private void showRows() {
        List<HolderRow> visible = new ArrayList<>(ordered.size());
        for (HolderRow r : ordered) {
            if (filter.test(r)) {
                visible.add(r);
            }
        }
        shown.setAll(visible);
        // A row the filter hides cannot stay selected: the side panel and its buttons would act on
        // a lease the supervisor no longer sees.
        HolderRow sel = selected.get();
        if (sel != null && visible.stream().noneMatch(r -> r.id() == sel.id())) {
            selected.set(null);
        }
        updateHoldersSummary();
    }

    private void afterHoldersChanged(long now) {
        long next = Long.MAX_VALUE;
        for (HolderRow r : ordered) {
            next = Math.min(next, r.deadlineNanos());
        }
        nextExpiryNanos = next;
        updateGroups();
    }

    // --- periodic work ------------------------------------------------------------------------------

    /** Every tick: countdowns, leases that ran out, refresh when due, numbers when due, fading notices. */
    void tick() {
        long now = ticker.nanoTime();
        clock.set(now);
        if (now >= nextExpiryNanos) {
            Set<Long> ids = new HashSet<>();
            for (HolderRow r : ordered) {
                if (r.expired(now)) {
                    ids.add(r.id());
                }
            }
            ids.forEach(byId::remove);
            ordered.removeIf(r -> ids.contains(r.id()));
            afterHoldersChanged(now);
            showRows();
            if (selected.get() != null && !byId.containsKey(selected.get().id())) {
                selected.set(null);
            }
        }
        if (!refreshing && now - lastRefreshNanos >= settings.refreshInterval().toNanos()) {
            if (now - lastFullNanos >= settings.fullReloadInterval().toNanos()) {
                reloadAll();
            } else {
                refresh();
            }
        }
        if (!loadingStats && now - lastStatsNanos >= settings.statsInterval().toNanos()) {
            refreshStats();
        }
        notices.removeIf(n -> !n.sticky() && now - n.postedAtNanos() > settings.noticeLifetime().toNanos());
        updateHoldersSummary();
    }

    // --- filtering, grouping, sorting ---------------------------------------------------------------

    /**
     * Sorts "Who holds what" by {@code key} inside its groups (a column header click). Ties go by
     * time left. Sorting again by the same key and direction does nothing, so a table that asks
     * after every refresh costs nothing.
     */
    public void sortBy(HolderSort key, boolean ascending) {
        if (key == sortKey.get() && ascending == sortAscending.get()) {
            return;
        }
        sortKey.set(key);
        sortAscending.set(ascending);
        sortDescription.set(key.describe(ascending));
        reorder();
        showRows();
    }

    private void reorder() {
        order = comparatorFor(grouping.get(), sortKey.get(), sortAscending.get());
        ordered.sort(order);
    }

    private Comparator<HolderRow> comparatorFor(Grouping g, HolderSort key, boolean ascending) {
        Comparator<HolderRow> inGroup = key.comparator(ascending, this::deskName);
        return g == Grouping.NONE ? inGroup
                : Comparator.comparing((HolderRow r) -> groupLabelKey(g, r)).thenComparing(inGroup);
    }

    /** Groups appear in the order of their labels, as the side list shows them. */
    private String groupLabelKey(Grouping g, HolderRow r) {
        return (g == Grouping.EDITOR ? r.editorName() : deskName(r.desk())).toLowerCase(Locale.ROOT);
    }

    private void updateFilter() {
        String text = search.get() == null ? "" : search.get().strip().toLowerCase(Locale.ROOT);
        GroupSummary group = groupFilter.get();
        Grouping g = grouping.get();
        Predicate<HolderRow> p = r -> (group == null || g.keyOf(r).equals(group.key()))
                && (text.isEmpty() || r.title().toLowerCase(Locale.ROOT).contains(text)
                || r.editorName().toLowerCase(Locale.ROOT).contains(text) || r.editorId().toLowerCase(Locale.ROOT).contains(text)
                || deskName(r.desk()).toLowerCase(Locale.ROOT).contains(text) || Long.toString(r.id()).equals(text));
        filter = text.isEmpty() && group == null ? r -> true : p;
        showRows();
    }

    private void updateGroups() {
        Grouping g = grouping.get();
        if (g == Grouping.NONE) {
            groups.clear();
            return;
        }
        Map<String, int[]> counts = new HashMap<>();
        Map<String, String> labels = new HashMap<>();
        for (HolderRow r : ordered) {
            String key = g.keyOf(r);
            counts.computeIfAbsent(key, k -> new int[1])[0]++;
            labels.putIfAbsent(key, g == Grouping.EDITOR ? r.editorName() : deskName(r.desk()));
        }
        List<GroupSummary> list = new ArrayList<>();
        counts.forEach((k, n) -> list.add(new GroupSummary(k, labels.get(k), n[0])));
        list.sort(Comparator.comparing((GroupSummary s) -> s.label().toLowerCase(Locale.ROOT)));
        GroupSummary chosen = groupFilter.get();
        groups.setAll(list);
        if (chosen != null) {
            // keep the choice across refreshes (the counts in it change)
            groupFilter.set(list.stream().filter(s -> s.key().equals(chosen.key())).findFirst().orElse(null));
        }
    }

    private void updateHoldersSummary() {
        if (!loaded) {
            return;
        }
        int visible = shown.size();
        int all = ordered.size();
        holdersEmptyText.set(emptyText(all));
        holdersSummary.set((visible == all ? Formats.count(all, "active lease")
                : String.format("%,d of %s", visible, Formats.count(all, "active lease"))) + " \u00b7 live");
    }

    /** What the empty table says: nobody holds anything, or nothing matches the search or group. */
    private String emptyText(int all) {
        if (all == 0) {
            return "Nobody holds an article right now.";
        }
        String text = search.get() == null ? "" : search.get().strip();
        GroupSummary group = groupFilter.get();
        String leases = all == 1 ? "One lease is active" : String.format("%,d leases are active", all);
        if (!text.isEmpty()) {
            return "No lease matches \u201c" + text + "\u201d" + (group == null ? "" : " in " + group.label())
                    + ". " + leases + "; clear the search to see them.";
        }
        return group == null ? "" : "No lease in " + group.label() + " now. " + leases + ".";
    }

    // --- actions --------------------------------------------------------------------------------------

    private void onSelected(HolderRow row) {
        capacityWarning.set("");
        pendingOverride = null;
        if (row == null) {
            reassignCandidates.clear();
            reassignTo.set(null);
            return;
        }
        Editor keep = reassignTo.get();
        List<Editor> fit = editors.stream()
                .filter(e -> !e.id().equals(row.editorId()) && e.desks().contains(row.desk()) && e.capacity() > 0)
                .toList();
        reassignCandidates.setAll(fit);
        reassignTo.set(keep != null && fit.stream().anyMatch(e -> e.id().equals(keep.id()))
                ? fit.stream().filter(e -> e.id().equals(keep.id())).findFirst().orElse(null) : null);
    }

    /** Ends the selected lease now; the holder is told, with the reason. */
    public void forceReleaseSelected() {
        HolderRow row = selected.get();
        if (row == null || acting.get()) {
            return;
        }
        if (reason.get().isBlank()) {
            post(Notice.Kind.WARNING, "Give a reason: " + row.editorName() + " will see it.");
            return;
        }
        String why = reason.get().strip();
        acting.set(true);
        tasks.run("force release", () -> services.supervision().forceRelease(row.id(), supervisor.id(), why), released -> {
            acting.set(false);
            reason.set("");
            post(Notice.Kind.SUCCESS, released.isPresent()
                    ? "Took \u201c" + row.title() + "\u201d back from " + row.editorName() + "."
                    : "\u201c" + row.title() + "\u201d was no longer held.");
            refreshSoon();
        }, this::onActionFailed);
    }

    /** Gives the selected article to the chosen editor; over capacity asks first (see {@link #capacityWarningProperty()}). */
    public void reassignSelected() {
        reassign(false);
    }

    /** The supervisor read the capacity warning and reassigns anyway. */
    public void confirmOverCapacity() {
        Runnable override = pendingOverride;
        pendingOverride = null;
        capacityWarning.set("");
        if (override != null) {
            override.run();
        }
    }

    public void cancelOverCapacity() {
        pendingOverride = null;
        capacityWarning.set("");
    }

    private void reassign(boolean overrideCapacity) {
        HolderRow row = selected.get();
        Editor to = reassignTo.get();
        if (row == null || to == null || acting.get()) {
            return;
        }
        String why = reason.get().strip();
        acting.set(true);
        capacityWarning.set("");
        tasks.run("reassign", () -> services.supervision().reassign(row.id(), to.id(), supervisor.id(), overrideCapacity,
                why.isEmpty() ? null : why), lease -> {
            acting.set(false);
            reason.set("");
            post(Notice.Kind.SUCCESS, "Gave \u201c" + row.title() + "\u201d to " + to.displayName() + ".");
            refreshSoon();
        }, failure -> {
            if (failure instanceof Supervision.OverCapacityException over) {
                acting.set(false);
                capacityWarning.set(over.getMessage());
                pendingOverride = () -> {
                    if (selected.get() != null && selected.get().id() == row.id()) {
                        reassign(true);
                    }
                };
                return;
            }
            onActionFailed(failure);
        });
    }

    /** Gives the holder more time (within the desk's maximum hold). */
    public void extendSelected(Duration by) {
        HolderRow row = selected.get();
        if (row == null || acting.get()) {
            return;
        }
        acting.set(true);
        tasks.run("extend", () -> services.supervision().extend(row.id(), by, supervisor.id()), lease -> {
            acting.set(false);
            post(Notice.Kind.SUCCESS, lease.isPresent()
                    ? "\u201c" + row.title() + "\u201d now runs until " + Formats.localClock(lease.get().expiresAt(), zone) + "."
                    : "\u201c" + row.title() + "\u201d was no longer held.");
            refreshSoon();
        }, this::onActionFailed);
    }

    private void onActionFailed(Throwable failure) {
        acting.set(false);
        onFailure(failure);
    }

    /** After an action the table should show its effect at once, not at the next scheduled refresh. */
    private void refreshSoon() {
        if (refreshing) {
            lastRefreshNanos = Long.MIN_VALUE / 2; // due as soon as the running refresh is back
        } else {
            refresh();
        }
    }

    // --- queue health, charts, editors ---------------------------------------------------------------

    public void refreshStats() {
        if (loadingStats) {
            return;
        }
        loadingStats = true;
        lastStatsNanos = ticker.nanoTime();
        tasks.run("load queue health", () -> new Stats(services.supervision().queueHealth(),
                services.statistics().finishedPerHour(Duration.ofHours(24)),
                services.statistics().expiredPerHour(Duration.ofHours(24)),
                services.statistics().editorLoad()), stats -> {
            loadingStats = false;
            back();
            applyStats(stats);
        }, failure -> {
            loadingStats = false;
            onFailure(failure);
        });
    }

    private void applyStats(Stats stats) {
        LocalDateTime now = stats.finished().serverNow();
        deskRows.setAll(stats.health().stream().map(h -> new DeskRow(h.desk(), h.name(), h.waitingNow(), h.scheduled(),
                h.inReview(), h.sentBack(), h.quarantined(), h.finishedToday(),
                h.oldestWaitingSince() == null ? "\u2014" : Formats.roughly(Duration.between(h.oldestWaitingSince(), now))))
                .toList());
        List<String> deskNamesInOrder = stats.health().stream().map(h -> h.name()).toList();
        finishedChart.set(chart(stats.finished(), c -> deskName(c.desk()), deskNamesInOrder));
        expiredChart.set(chart(stats.expired(), c -> deskName(c.desk()), deskNamesInOrder));
        editorRows.setAll(stats.editors().stream().map(e -> new EditorRow(e.id(), e.displayName(),
                e.role().name().toLowerCase(Locale.ROOT), Presence.of(e.sinceSeen(), settings.idleAfter(), settings.offlineAfter()),
                e.sinceSeen() == null ? "never" : Formats.roughly(e.sinceSeen()) + " ago", e.held(), e.capacity(),
                e.finishedToday())).toList());
    }

    /** 24 hourly buckets ending with the server's current hour, labelled on this PC's clock. */
    private HourlyChart chart(QueueStatistics.Hourly hourly, java.util.function.Function<QueueStatistics.HourlyCount, String> series,
                              List<String> alwaysShown) {
        LocalDateTime last = hourly.serverNow().withMinute(0).withSecond(0).withNano(0);
        LocalDateTime first = last.minusHours(23);
        List<String> labels = new ArrayList<>();
        for (int i = 0; i < 24; i++) {
            labels.add(Formats.localClock(first.plusHours(i), zone));
        }
        Map<String, List<Integer>> data = new LinkedHashMap<>();
        alwaysShown.forEach(name -> data.put(name, zeros()));
        for (QueueStatistics.HourlyCount c : hourly.counts()) {
            int i = (int) Duration.between(first, c.hour()).toHours();
            if (i >= 0 && i < 24) {
                data.computeIfAbsent(series.apply(c), k -> zeros()).set(i, c.count());
            }
        }
        return new HourlyChart(labels, data);
    }

    private static List<Integer> zeros() {
        return new ArrayList<>(java.util.Collections.nCopies(24, 0));
    }

    // --- audit ----------------------------------------------------------------------------------------

    public void searchAudit() {
        Long article = null;
        String a = auditArticle.get() == null ? "" : auditArticle.get().strip();
        if (!a.isEmpty()) {
            try {
                article = Long.valueOf(a);
            } catch (NumberFormatException e) {
                post(Notice.Kind.WARNING, "An article is given by its number, e.g. 1042.");
                return;
            }
        }
        AuditLog.Query query = new AuditLog.Query(auditEditor.get(), article, auditAction.get(),
                auditRange.get() == null ? null : auditRange.get().span(), AUDIT_LIMIT);
        auditSummary.set("Searching\u2026");
        tasks.run("search audit", () -> services.auditLog().search(query), entries -> {
            back();
            auditEntries.setAll(entries);
            auditSummary.set(entries.size() >= AUDIT_LIMIT ? String.format("Newest %,d events; narrow the filters to see older ones.", entries.size())
                    : Formats.count(entries.size(), "event"));
        }, this::onFailure);
    }

    /** Shows the whole history of the article the event is about. */
    public void showHistory(AuditLog.Entry entry) {
        if (entry == null || entry.articleId() == null) {
            articleHistory.clear();
            historyTitle.set("Select an event to see its article's full history.");
            return;
        }
        long id = entry.articleId();
        tasks.run("article history", () -> new Object[] {services.queue().article(id), services.history().of(id)}, r -> {
            @SuppressWarnings("unchecked")
            var detail = (java.util.Optional<org.copydesk.review.ArticleDetail>) r[0];
            @SuppressWarnings("unchecked")
            List<HistoryEntry> history = (List<HistoryEntry>) r[1];
            historyTitle.set("Article " + id + detail.map(d -> ": \u201c" + d.title() + "\u201d (" + deskName(d.desk()) + ", "
                    + d.status() + ")").orElse(" (deleted)") + " \u2014 " + Formats.count(history.size(), "event"));
            articleHistory.setAll(history);
        }, this::onFailure);
    }

    // --- quarantine -----------------------------------------------------------------------------------

    public void refreshQuarantine() {
        tasks.run("load quarantine", () -> new Quarantine(services.quarantine().list(), services.importRejects().listOpen(500)),
                q -> {
                    back();
                    quarantined.setAll(q.articles());
                    importRejects.setAll(q.rejects());
                }, this::onFailure);
    }

    /** Puts the selected quarantined article back in the queue, with the corrected title if changed. */
    public void requeueSelectedArticle() {
        ArticleQuarantine.Entry entry = selectedQuarantined.get();
        if (entry == null || acting.get()) {
            return;
        }
        String title = correctedTitle.get() == null || correctedTitle.get().strip().equals(entry.title()) ? null
                : correctedTitle.get().strip();
        String note = requeueNote.get() == null || requeueNote.get().isBlank() ? "requeued from the dashboard" : requeueNote.get().strip();
        acting.set(true);
        tasks.run("requeue article", () -> {
            services.quarantine().requeue(entry.id(), supervisor.id(), title, null, note);
            return true;
        }, ok -> {
            acting.set(false);
            post(Notice.Kind.SUCCESS, "\u201c" + (title == null ? entry.title() : title) + "\u201d is back in the queue.");
            selectedQuarantined.set(null);
            refreshQuarantine();
            refreshStats();
        }, this::onActionFailed);
    }

    /** Creates the article from the corrected import row. */
    public void requeueSelectedReject() {
        ImportRejects.Reject reject = selectedReject.get();
        if (reject == null || acting.get()) {
            return;
        }
        String text = correctedRow.get();
        acting.set(true);
        tasks.run("requeue import row", () -> services.importRejects().requeue(reject.id(), text, supervisor.id()), id -> {
            acting.set(false);
            post(Notice.Kind.SUCCESS, "Line " + reject.lineNumber() + " of " + reject.sourceName() + " is article " + id
                    + " now, waiting for review.");
            selectedReject.set(null);
            refreshQuarantine();
            refreshStats();
        }, this::onActionFailed);
    }

    public void discardSelectedReject() {
        ImportRejects.Reject reject = selectedReject.get();
        if (reject == null || acting.get()) {
            return;
        }
        acting.set(true);
        tasks.run("discard import row", () -> {
            services.importRejects().discard(reject.id());
            return true;
        }, ok -> {
            acting.set(false);
            post(Notice.Kind.INFO, "Discarded line " + reject.lineNumber() + " of " + reject.sourceName() + ".");
            selectedReject.set(null);
            refreshQuarantine();
        }, this::onActionFailed);
    }

    // --- export ---------------------------------------------------------------------------------------

    /** The table the tab shows now, as text. For the holders, the rows as filtered and sorted. */
    public TableSnapshot snapshot(DashboardTab tab) {
        long now = ticker.nanoTime();
        return switch (tab) {
            case HOLDERS -> new TableSnapshot(List.of("article", "title", "desk", "editor", "editor_id", "claimed_at_utc",
                    "renewals", "time_left_seconds", "holder"), shown.stream().map(r -> List.of(Long.toString(r.id()), r.title(),
                    deskName(r.desk()), r.editorName(), r.editorId(), String.valueOf(r.claimedAt()), Integer.toString(r.renewals()),
                    Long.toString(r.timeLeft(now).toSeconds()), presenceOf(r).label())).toList());
            case HEALTH -> new TableSnapshot(List.of("desk", "waiting_now", "scheduled", "in_review", "sent_back", "quarantined",
                    "finished_today", "oldest_waiting"), deskRows.stream().map(d -> List.of(d.name(), i(d.waitingNow()),
                    i(d.scheduled()), i(d.inReview()), i(d.sentBack()), i(d.quarantined()), i(d.finishedToday()), d.oldestWaiting()))
                    .toList());
            case EDITORS -> new TableSnapshot(List.of("editor", "id", "role", "presence", "last_seen", "held", "capacity",
                    "finished_today"), editorRows.stream().map(e -> List.of(e.name(), e.id(), e.role(), e.presence().label(),
                    e.lastSeen(), i(e.held()), i(e.capacity()), i(e.finishedToday()))).toList());
            case AUDIT -> new TableSnapshot(List.of("event", "at_utc", "article", "action", "actor", "old_owner", "new_owner",
                    "detail"), auditEntries.stream().map(e -> List.of(Long.toString(e.id()), String.valueOf(e.at()),
                    e.articleId() == null ? "" : e.articleId().toString(), e.action(), e.actor(), nz(e.oldOwner()), nz(e.newOwner()),
                    nz(e.detail()))).toList());
            case QUARANTINE -> {
                List<List<String>> rows = new ArrayList<>();
                quarantined.forEach(q -> rows.add(List.of("article", Long.toString(q.id()), deskName(q.desk()), q.title(),
                        nz(q.reason()), String.valueOf(q.since()))));
                importRejects.forEach(r -> rows.add(List.of("import row", Long.toString(r.id()), r.sourceName() + ":" + r.lineNumber(),
                        r.rawText(), r.reason(), String.valueOf(r.createdAt()))));
                yield new TableSnapshot(List.of("kind", "id", "desk_or_source", "title_or_raw_text", "reason", "since_utc"), rows);
            }
        };
    }

    /** Writes the tab's table to {@code file} off the FX thread. */
    public void export(DashboardTab tab, Path file) {
        TableSnapshot table = snapshot(tab);
        tasks.run("export csv", () -> {
            CsvExport.write(table, file);
            return table.rows().size();
        }, n -> post(Notice.Kind.SUCCESS, "Exported " + Formats.count(n, "row") + " to " + file.getFileName() + "."),
                failure -> post(Notice.Kind.ERROR, "Could not write " + file.getFileName() + ": " + failure.getMessage()));
    }

    private static String i(int n) {
        return Integer.toString(n);
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }

    // --- failures and notices -------------------------------------------------------------------------

    private void onFailure(Throwable failure) {
        if (ConnectionTrouble.isConnectionLost(failure)) {
            offline.set(true);
            banner.set("Copydesk cannot reach the database. The dashboard shows what it last saw and keeps trying.");
            return;
        }
        post(Notice.Kind.ERROR, ConnectionTrouble.describe(failure));
    }

    private void back() {
        if (offline.get()) {
            offline.set(false);
            banner.set("");
            post(Notice.Kind.SUCCESS, "Back online.");
        }
    }

    private void post(Notice.Kind kind, String text) {
        notices.add(0, Notice.of(kind, text, ticker.nanoTime()));
        while (notices.size() > 4) {
            notices.remove(notices.size() - 1);
        }
    }

    public void dismiss(Notice notice) {
        notices.remove(notice);
    }

    @Override
    public void close() {
        for (AutoCloseable t : timers) {
            try {
                t.close();
            } catch (Exception ignored) {
                // stopping a timer cannot fail in a way worth reporting
            }
        }
        timers.clear();
    }

    // --- what the view binds to -----------------------------------------------------------------------

    public Editor supervisor() {
        return supervisor;
    }

    public ZoneId zone() {
        return zone;
    }

    public String deskName(String id) {
        return deskNames.getOrDefault(id, id);
    }

    public Presence presenceOf(HolderRow row) {
        return row.presence(clock.get(), settings.idleAfter(), settings.offlineAfter());
    }

    /** The rows as shown: filtered, grouped and sorted by time left. */
    public ObservableList<HolderRow> holders() {
        return shownReadOnly;
    }

    /** Every active lease, unfiltered, in display order. */
    public List<HolderRow> allHolders() {
        return java.util.Collections.unmodifiableList(ordered);
    }

    /** The local monotonic time of the last tick; cells showing time left redraw when it moves. */
    public ReadOnlyLongProperty clockProperty() {
        return clock;
    }

    public StringProperty searchProperty() {
        return search;
    }

    public ReadOnlyObjectProperty<HolderSort> sortKeyProperty() {
        return sortKey;
    }

    public ReadOnlyBooleanProperty sortAscendingProperty() {
        return sortAscending;
    }

    /** "By time left, soonest to run out first". */
    public ReadOnlyStringProperty sortDescriptionProperty() {
        return sortDescription;
    }

    public ObjectProperty<Grouping> groupingProperty() {
        return grouping;
    }

    public ObservableList<GroupSummary> groups() {
        return groups;
    }

    public ObjectProperty<GroupSummary> groupFilterProperty() {
        return groupFilter;
    }

    public ObjectProperty<HolderRow> selectedProperty() {
        return selected;
    }

    public ObservableList<Editor> reassignCandidates() {
        return reassignCandidates;
    }

    public ObjectProperty<Editor> reassignToProperty() {
        return reassignTo;
    }

    public StringProperty reasonProperty() {
        return reason;
    }

    public ReadOnlyStringProperty capacityWarningProperty() {
        return capacityWarning;
    }

    public ReadOnlyBooleanProperty actingProperty() {
        return acting;
    }

    public BooleanBinding canActProperty() {
        return canAct;
    }

    public BooleanBinding canForceReleaseProperty() {
        return canForceRelease;
    }

    public BooleanBinding canReassignProperty() {
        return canReassign;
    }

    public ReadOnlyStringProperty holdersSummaryProperty() {
        return holdersSummary;
    }

    /** The text of the empty holders table: why no row is shown. */
    public ReadOnlyStringProperty holdersEmptyTextProperty() {
        return holdersEmptyText;
    }

    public ReadOnlyObjectProperty<RefreshCost> lastRefreshProperty() {
        return lastRefresh;
    }

    public ObservableList<DeskRow> deskRows() {
        return deskRows;
    }

    public ReadOnlyObjectProperty<HourlyChart> finishedChartProperty() {
        return finishedChart;
    }

    public ReadOnlyObjectProperty<HourlyChart> expiredChartProperty() {
        return expiredChart;
    }

    public ObservableList<EditorRow> editorRows() {
        return editorRows;
    }

    public StringProperty auditEditorProperty() {
        return auditEditor;
    }

    public StringProperty auditArticleProperty() {
        return auditArticle;
    }

    public ObjectProperty<String> auditActionProperty() {
        return auditAction;
    }

    public ObjectProperty<AuditRange> auditRangeProperty() {
        return auditRange;
    }

    public List<String> auditActions() {
        return AuditLog.ACTIONS;
    }

    public ObservableList<AuditLog.Entry> auditEntries() {
        return auditEntries;
    }

    public ReadOnlyStringProperty auditSummaryProperty() {
        return auditSummary;
    }

    public ObservableList<HistoryEntry> articleHistory() {
        return articleHistory;
    }

    public ReadOnlyStringProperty historyTitleProperty() {
        return historyTitle;
    }

    public ObservableList<ArticleQuarantine.Entry> quarantined() {
        return quarantined;
    }

    public ObjectProperty<ArticleQuarantine.Entry> selectedQuarantinedProperty() {
        return selectedQuarantined;
    }

    public StringProperty correctedTitleProperty() {
        return correctedTitle;
    }

    public StringProperty requeueNoteProperty() {
        return requeueNote;
    }

    public ObservableList<ImportRejects.Reject> importRejects() {
        return importRejects;
    }

    public ObjectProperty<ImportRejects.Reject> selectedRejectProperty() {
        return selectedReject;
    }

    public StringProperty correctedRowProperty() {
        return correctedRow;
    }

    public ObservableList<Notice> notices() {
        return notices;
    }

    public ReadOnlyBooleanProperty offlineProperty() {
        return offline;
    }

    public ReadOnlyStringProperty bannerProperty() {
        return banner;
    }
}
