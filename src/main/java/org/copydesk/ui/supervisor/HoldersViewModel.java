package org.copydesk.ui.supervisor;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
import org.copydesk.review.Supervision;
import org.copydesk.review.Supervision.ActiveLease;
import org.copydesk.ui.common.Messages;
import org.copydesk.ui.supervisor.HoldersTable.GroupSummary;

/**
 * The "Who holds what" tab: the live table of {@link HoldersTable}, its selection and the refresh.
 *
 * <p>Kept live from the event log: every refresh asks which articles had events since the last one
 * and re-reads only those leases, so a refresh costs what changed, not what is held. Countdowns and
 * idleness tick locally from the server's times (see {@link HolderRow}); rows whose lease runs out
 * leave on the tick. A full reload every minute is the safety net for what the log cannot show in
 * id order (a transaction that committed after a later id was read).
 *
 * <p>Rows do not move under the supervisor's hand: while the pointer is over the table or its
 * actions, or the keyboard works on a selection in the table, updates from the server change
 * rows in place but do not add, remove or reorder them; {@link #heldChangesProperty()} says how
 * many wait, and they are shown on request or when the pointer leaves. The selection is a set of
 * leases (article numbers), never row positions, so it stays on its leases across refreshes.
 */
public final class HoldersViewModel {

    /** What one refresh cost: database time on a worker thread, and update time on the FX thread. */
    public record RefreshCost(boolean full, int articlesAsked, int rowsChanged, int rowsShown, long databaseNanos,
                              long applyNanos) {
    }

    private record Delta(boolean full, boolean atOnce, Set<Long> asked, List<ActiveLease> leases, long latestEventId, long databaseNanos) {
    }

    private final DashboardContext context;
    private final HoldersTable table;
    private final ObservableList<HolderRow> shown = FXCollections.observableArrayList();
    private final ObservableList<HolderRow> shownReadOnly = FXCollections.unmodifiableObservableList(shown);
    private final ObjectProperty<HolderSort> sortKey = new SimpleObjectProperty<>(HolderSort.DEFAULT);
    private final BooleanProperty sortAscending = new SimpleBooleanProperty(HolderSort.DEFAULT_ASCENDING);
    private final StringProperty sortDescription = new SimpleStringProperty(HolderSort.DEFAULT.describe(HolderSort.DEFAULT_ASCENDING));
    private final LongProperty clock = new SimpleLongProperty();
    private final StringProperty search = new SimpleStringProperty("");
    private final ObjectProperty<Grouping> grouping = new SimpleObjectProperty<>(Grouping.NONE);
    private final ObjectProperty<GroupSummary> groupFilter = new SimpleObjectProperty<>();
    private final ObservableList<GroupSummary> groups = FXCollections.observableArrayList();
    private final Set<Long> selectedIds = new LinkedHashSet<>();
    private final ObjectProperty<HolderRow> selected = new SimpleObjectProperty<>();
    private final ObservableList<HolderRow> selection = FXCollections.observableArrayList();
    private final ObservableList<HolderRow> selectionReadOnly = FXCollections.unmodifiableObservableList(selection);
    private final StringProperty summary = new SimpleStringProperty(Messages.text("dashboard.holders.loading"));
    private final StringProperty emptyText = new SimpleStringProperty(Messages.text("dashboard.holders.loading"));
    private final StringProperty error = new SimpleStringProperty("");
    private final ObjectProperty<RefreshCost> lastRefresh = new SimpleObjectProperty<>();
    private final BooleanProperty pointerOver = new SimpleBooleanProperty();
    private final BooleanProperty keyboardOnRows = new SimpleBooleanProperty();
    private final ObjectProperty<HeldChanges> held = new SimpleObjectProperty<>(HeldChanges.NONE);
    private final StringProperty heldText = new SimpleStringProperty("");
    /** How many active leases pass the search and group now, whether or not the rows show them yet. */
    private int matching;
    private long cursor;
    private boolean refreshing;
    private boolean loaded;
    private boolean selecting;
    private boolean showNextRefresh;
    private long lastRefreshNanos;
    private long lastFullNanos;

    HoldersViewModel(DashboardContext context) {
        this.context = context;
        this.table = new HoldersTable(context::deskName);
        clock.set(context.ticker.nanoTime());
        search.addListener((o, a, text) -> {
            table.search(text);
            showRows();
        });
        groupFilter.addListener((o, a, g) -> {
            if (g != table.groupFilter()) {
                table.showGroup(g);
                showRows();
            }
        });
        grouping.addListener((o, a, g) -> {
            table.groupBy(g);
            groupFilter.set(null);
            updateGroups();
            showRows();
        });
        selected.addListener((o, a, row) -> {
            if (!selecting) {
                select(row == null ? List.of() : List.of(row));
            }
        });
        pointerOver.addListener((o, a, over) -> showHeldWhenFree());
        keyboardOnRows.addListener((o, a, focused) -> showHeldWhenFree());
    }

    /** Desks sort and group by name, known only once loaded. */
    void desksKnown() {
        table.reorder();
        updateGroups();
        showRows();
    }

    // --- refresh ------------------------------------------------------------------------------------

    /** Re-reads every active lease (and diffs it against the table). */
    public void reloadAll() {
        if (refreshing) {
            return;
        }
        refreshing = true;
        lastRefreshNanos = context.ticker.nanoTime();
        lastFullNanos = lastRefreshNanos;
        Set<Long> known = new HashSet<>();
        table.all().forEach(r -> known.add(r.id()));
        Supervision supervision = context.services.supervision();
        boolean atOnce = takeShowNextRefresh();
        context.tasks.run("load active leases", () -> {
            long started = System.nanoTime();
            // the id first: whatever happens while the leases are read is seen again next time
            long latest = supervision.latestEventId();
            List<ActiveLease> all = supervision.activeLeases();
            Set<Long> asked = new HashSet<>(known);
            all.forEach(a -> asked.add(a.articleId()));
            return new Delta(true, atOnce, asked, all, latest, System.nanoTime() - started);
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
        lastRefreshNanos = context.ticker.nanoTime();
        // Ids are handed out at insert but become visible at commit, so an event can appear below the
        // cursor after the cursor passed it; looking a little behind the cursor catches those.
        long from = Math.max(0, cursor - context.settings.eventOverlap());
        Supervision supervision = context.services.supervision();
        boolean atOnce = takeShowNextRefresh();
        context.tasks.run("refresh active leases", () -> {
            long started = System.nanoTime();
            Supervision.Changes changes = supervision.changesSince(from);
            List<ActiveLease> leases = supervision.activeLeases(changes.articleIds());
            return new Delta(false, atOnce, changes.articleIds(), leases, changes.latestEventId(), System.nanoTime() - started);
        }, this::apply, this::onRefreshFailed);
    }

    /**
     * After an action the table should show its effect at once, not at the next scheduled refresh,
     * and even under the pointer: the supervisor asked for this change.
     */
    void refreshSoon() {
        showNextRefresh = true;
        if (refreshing) {
            lastRefreshNanos = Long.MIN_VALUE / 2; // due as soon as the running refresh is back
        } else {
            refresh();
        }
    }

    /** Whether the refresh starting now is the one an action asked for (only one that starts after it). */
    private boolean takeShowNextRefresh() {
        boolean atOnce = showNextRefresh;
        showNextRefresh = false;
        return atOnce;
    }

    private void apply(Delta delta) {
        long started = System.nanoTime();
        refreshing = false;
        loaded = true;
        context.reached();
        error.set("");
        HoldersTable.Merge merge = table.merge(delta.asked(), delta.leases(), context.ticker.nanoTime());
        cursor = Math.max(cursor, delta.latestEventId());
        if (merge.changed()) {
            updateGroups();
        }
        if (delta.atOnce()) {
            showRows();
        } else if (merge.changed()) {
            showAfterServerChange();
        }
        lastRefresh.set(new RefreshCost(delta.full(), delta.asked().size(), merge.rowsChanged(), table.size(),
                delta.databaseNanos(), System.nanoTime() - started));
        updateSummary();
    }

    private void onRefreshFailed(Throwable failure) {
        refreshing = false;
        context.failed(failure, error);
    }

    /** Every tick: countdowns, leases that ran out, the refresh when due. */
    void tick(long now) {
        clock.set(now);
        if (!table.expire(now).isEmpty()) {
            updateGroups();
            showAfterServerChange();
        }
        if (!refreshing && now - lastRefreshNanos >= context.settings.refreshInterval().toNanos()) {
            if (now - lastFullNanos >= context.settings.fullReloadInterval().toNanos()) {
                reloadAll();
            } else {
                refresh();
            }
        }
        updateSummary();
    }

    // --- what is shown, and holding still -----------------------------------------------------------

    /** Whether the supervisor is working with the rows: pointing at them, or on them with the keyboard. */
    private boolean holding() {
        return pointerOver.get() || (keyboardOnRows.get() && !selectedIds.isEmpty());
    }

    /** A change from the server: shown at once, or, while held, only where it changes no row's place. */
    private void showAfterServerChange() {
        if (!holding()) {
            showRows();
            return;
        }
        for (int i = 0; i < shown.size(); i++) {
            HolderRow now = table.get(shown.get(i).id());
            if (now != null && now != shown.get(i)) {
                shown.set(i, now); // the same lease, renewed or extended: its place does not change
            }
        }
        updateHeld(table.visible());
        refreshSelection();
    }

    private void showHeldWhenFree() {
        if (!holding() && held.get().any()) {
            showRows();
        }
    }

    /** Shows what waited while the rows held still ("Show changes"). */
    public void showHeldChanges() {
        showRows();
    }

    /** The table's rows: the ordered leases that pass the filter, in one change. */
    private void showRows() {
        List<HolderRow> visible = table.visible();
        shown.setAll(visible);
        updateHeld(visible);
        // A row the filter hides, or a lease that ended, cannot stay selected: the side panel and
        // its buttons would act on a lease the supervisor no longer sees.
        Set<Long> ids = new HashSet<>();
        visible.forEach(r -> ids.add(r.id()));
        selectedIds.removeIf(id -> !ids.contains(id));
        refreshSelection();
        updateSummary();
    }

    private void updateHeld(List<HolderRow> latest) {
        matching = latest.size();
        HeldChanges changes = shown.size() == latest.size() && idsOf(shown).equals(idsOf(latest)) ? HeldChanges.NONE
                : HeldChanges.between(idsOf(shown), idsOf(latest));
        held.set(changes);
        heldText.set(changes.describe());
    }

    private static List<Long> idsOf(List<HolderRow> rows) {
        List<Long> ids = new ArrayList<>(rows.size());
        rows.forEach(r -> ids.add(r.id()));
        return ids;
    }

    private void updateGroups() {
        groups.setAll(table.groups());
        if (groupFilter.get() != table.groupFilter()) {
            groupFilter.set(table.groupFilter()); // the same group with its new count, or none
        }
    }

    /**
     * The count is of the leases as they are now, not of the rows on screen: while the rows hold
     * still they may still show a lease that ended, or not yet one that began, and the waiting
     * changes say so beside the count.
     */
    private void updateSummary() {
        if (loaded) {
            emptyText.set(table.emptyText());
            summary.set(table.summary(matching));
        }
    }

    // --- selection ----------------------------------------------------------------------------------

    /** Selects these leases (the table's multiple selection); the first one leads the side panel. */
    public void select(Collection<HolderRow> rows) {
        selectedIds.clear();
        rows.forEach(r -> selectedIds.add(r.id()));
        refreshSelection();
    }

    /** The selected leases as their rows are shown now (a held row that ended stays until it is shown no more). */
    private void refreshSelection() {
        Map<Long, HolderRow> heldRows = new HashMap<>();
        if (holding()) {
            shown.forEach(r -> heldRows.put(r.id(), r)); // current where the lease lives on, as last seen where it ended
        }
        List<HolderRow> rows = new ArrayList<>(selectedIds.size());
        for (Long id : selectedIds) {
            HolderRow row = holding() ? heldRows.get(id) : table.get(id);
            if (row != null) {
                rows.add(row);
            }
        }
        if (!rows.equals(selection)) {
            selection.setAll(rows);
        }
        HolderRow lead = rows.isEmpty() ? null : rows.get(0);
        if (selected.get() != lead) {
            selecting = true;
            try {
                selected.set(lead);
            } finally {
                selecting = false;
            }
        }
    }

    // --- sorting ------------------------------------------------------------------------------------

    /**
     * Sorts by {@code key} inside its groups (a column header click). Ties go by claim time.
     * Sorting again by the same key and direction does nothing, so a table that asks after every
     * refresh costs nothing.
     */
    public void sortBy(HolderSort key, boolean ascending) {
        if (!table.sortBy(key, ascending)) {
            return;
        }
        sortKey.set(key);
        sortAscending.set(ascending);
        sortDescription.set(key.describe(ascending));
        showRows();
    }

    // --- export -------------------------------------------------------------------------------------

    /** The rows as filtered and sorted, as text. */
    TableSnapshot snapshot() {
        long now = context.ticker.nanoTime();
        return new TableSnapshot(List.of("article", "title", "desk", "editor", "editor_id", "claimed_at_utc", "renewals",
                "time_left_seconds", "holder"), shown.stream().map(r -> List.of(Long.toString(r.id()), r.title(),
                context.deskName(r.desk()), r.editorName(), r.editorId(), String.valueOf(r.claimedAt()),
                Integer.toString(r.renewals()), Long.toString(r.timeLeft(now).toSeconds()), presenceOf(r).label())).toList());
    }

    // --- what the view binds to ---------------------------------------------------------------------

    public Presence presenceOf(HolderRow row) {
        return row.presence(clock.get(), context.settings.idleAfter(), context.settings.offlineAfter());
    }

    public String deskName(String id) {
        return context.deskName(id);
    }

    public java.time.ZoneId zone() {
        return context.zone;
    }

    /** The rows as shown: filtered, grouped and sorted. */
    public ObservableList<HolderRow> rows() {
        return shownReadOnly;
    }

    /** Every active lease, unfiltered, in display order. */
    public List<HolderRow> allRows() {
        return table.all();
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

    /** The lease that leads the selection (the side panel describes it); setting it selects it alone. */
    public ObjectProperty<HolderRow> selectedProperty() {
        return selected;
    }

    /** Every selected lease, as its row is shown now. */
    public ObservableList<HolderRow> selection() {
        return selectionReadOnly;
    }

    public ReadOnlyStringProperty summaryProperty() {
        return summary;
    }

    /** The text of the empty table: why no row is shown. */
    public ReadOnlyStringProperty emptyTextProperty() {
        return emptyText;
    }

    /** Why the last refresh failed (a lost connection shows in the banner instead); empty when it worked. */
    public ReadOnlyStringProperty errorProperty() {
        return error;
    }

    /** Where a failure to load the table is said (beside the table). */
    StringProperty errorMessage() {
        return error;
    }

    public ReadOnlyObjectProperty<RefreshCost> lastRefreshProperty() {
        return lastRefresh;
    }

    /** Set by the view while the pointer is over the table or the lease actions. */
    public BooleanProperty pointerOverProperty() {
        return pointerOver;
    }

    /** Set by the view while the table has the focus and the keyboard, not the mouse, was used on it last. */
    public BooleanProperty keyboardOnRowsProperty() {
        return keyboardOnRows;
    }

    ReadOnlyObjectProperty<HeldChanges> heldChangesProperty() {
        return held;
    }

    /** "3 changes wait while you work here: 1 new, 2 moved."; empty when the table shows the latest. */
    public ReadOnlyStringProperty heldTextProperty() {
        return heldText;
    }
}
