package org.copydesk.ui.supervisor;

import java.time.ZoneId;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.LongProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyLongProperty;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.SimpleLongProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.ObservableList;
import org.copydesk.ui.supervisor.HoldersTable.GroupSummary;

/**
 * The "Who holds what" tab: the live table of {@link HoldersTable} and what the view binds to. It
 * builds the parts and keeps them in step: keeping the table true from the event log
 * ({@link LiveLeases}), how the supervisor chose to see it ({@link TableChoices}), the rows on
 * screen that hold still under the supervisor's hand ({@link StillRows}), the selection by lease
 * ({@link HolderSelection}) and the count line ({@link HoldersCount}).
 *
 * <p>Countdowns and idleness tick locally from the server's times (see {@link HolderRow}); rows
 * whose lease runs out leave on the tick. Every method here is called on the FX thread.
 */
public final class HoldersViewModel {

    /** What one refresh cost: database time on a worker thread, and update time on the FX thread. */
    public record RefreshCost(boolean full, int articlesAsked, int rowsChanged, int rowsShown, long databaseNanos,
                              long applyNanos) {
    }

    private final DashboardContext context;
    private final HoldersTable table;
    private final LongProperty clock = new SimpleLongProperty();
    private final HolderSelection selection;
    private final StillRows still;
    private final TableChoices choices;
    private final HoldersCount count;
    private final LiveLeases live;

    HoldersViewModel(DashboardContext context) {
        this.context = context;
        this.table = new HoldersTable(context::deskName);
        clock.set(context.ticker.nanoTime());
        this.selection = new HolderSelection(this::rowsNow);
        this.still = new StillRows(table, selection, this::showRows);
        this.choices = new TableChoices(table, this::showRows);
        this.count = new HoldersCount(table);
        this.live = new LiveLeases(context, table, this::showMerge, this::updateCount);
    }

    /** Desks sort and group by name, known only once loaded. */
    void desksKnown() {
        choices.desksKnown();
    }

    // --- refresh ------------------------------------------------------------------------------------

    /** Re-reads every active lease (and diffs it against the table). */
    public void reloadAll() {
        live.reloadAll();
    }

    /** Reads the leases of the articles that had events since the last refresh. */
    public void refresh() {
        live.refresh();
    }

    /** After an action: its effect is shown at once, even under the pointer (see {@link LiveLeases#refreshSoon()}). */
    void refreshSoon() {
        live.refreshSoon();
    }

    /** Every tick: countdowns, leases that ran out, the refresh when due. */
    void tick(long now) {
        clock.set(now);
        if (!table.expire(now).isEmpty()) {
            choices.updateGroups();
            showAfterServerChange();
        }
        live.refreshIfDue(now);
        updateCount();
    }

    // --- what is shown ------------------------------------------------------------------------------

    private void showMerge(HoldersTable.Merge merge, boolean atOnce) {
        if (merge.changed()) {
            choices.updateGroups();
        }
        if (atOnce) {
            showRows();
        } else if (merge.changed()) {
            showAfterServerChange();
        }
    }

    /** A change from the server: shown at once, or, while held, only where it changes no row's place. */
    private void showAfterServerChange() {
        if (still.holding()) {
            still.showInPlace();
        } else {
            showRows();
        }
    }

    /** The table's rows: the ordered leases that pass the filter, in one change, and their count. */
    private void showRows() {
        still.showLatest();
        updateCount();
    }

    /** Shows what waited while the rows held still ("Show changes"). */
    public void showHeldChanges() {
        showRows();
    }

    private void updateCount() {
        if (live.loaded()) {
            count.count(still.matching());
            Map<String, Integer> heldNow = new HashMap<>();
            table.all().forEach(r -> heldNow.merge(r.editorId(), 1, Integer::sum));
            context.floor.held(heldNow);
        }
    }

    /** Where the selection finds its leases' rows; the still rows, which keep it in step, come after it. */
    private Function<Long, HolderRow> rowsNow() {
        return still.rowsNow();
    }

    /** Selects these leases (the table's multiple selection); the first one leads the side panel. */
    public void select(Collection<HolderRow> chosen) {
        selection.select(chosen);
    }

    /** Sorts by {@code key} inside its groups (a column header click); see {@link TableChoices#sortBy}. */
    public void sortBy(HolderSort key, boolean ascending) {
        choices.sortBy(key, ascending);
    }

    /** The rows as filtered and sorted, as text. */
    TableSnapshot snapshot() {
        long now = context.ticker.nanoTime();
        return new TableSnapshot(List.of("article", "title", "desk", "editor", "editor_id", "claimed_at_utc", "renewals",
                "time_left_seconds", "holder"), still.rows().stream().map(r -> List.of(Long.toString(r.id()), r.title(),
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

    public ZoneId zone() {
        return context.zone;
    }

    /** The rows as shown: filtered, grouped and sorted. */
    public ObservableList<HolderRow> rows() {
        return still.rows();
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
        return choices.searchProperty();
    }

    public ReadOnlyObjectProperty<HolderSort> sortKeyProperty() {
        return choices.sortKeyProperty();
    }

    public ReadOnlyBooleanProperty sortAscendingProperty() {
        return choices.sortAscendingProperty();
    }

    /** "By time left, soonest to run out first". */
    public ReadOnlyStringProperty sortDescriptionProperty() {
        return choices.sortDescriptionProperty();
    }

    public ObjectProperty<Grouping> groupingProperty() {
        return choices.groupingProperty();
    }

    public ObservableList<GroupSummary> groups() {
        return choices.groups();
    }

    public ObjectProperty<GroupSummary> groupFilterProperty() {
        return choices.groupFilterProperty();
    }

    /** The lease that leads the selection (the side panel describes it); setting it selects it alone. */
    public ObjectProperty<HolderRow> selectedProperty() {
        return selection.leadProperty();
    }

    /** Every selected lease, as its row is shown now. */
    public ObservableList<HolderRow> selection() {
        return selection.rows();
    }

    public ReadOnlyStringProperty summaryProperty() {
        return count.summaryProperty();
    }

    /** The text of the empty table: why no row is shown. */
    public ReadOnlyStringProperty emptyTextProperty() {
        return count.emptyTextProperty();
    }

    /** Why the last refresh failed (a lost connection shows in the banner instead); empty when it worked. */
    public ReadOnlyStringProperty errorProperty() {
        return live.error();
    }

    /** Where a failure to load the table is said (beside the table). */
    StringProperty errorMessage() {
        return live.error();
    }

    public ReadOnlyObjectProperty<RefreshCost> lastRefreshProperty() {
        return live.lastRefreshProperty();
    }

    /** Set by the view while the pointer is over the table or the lease actions. */
    public BooleanProperty pointerOverProperty() {
        return still.pointerOverProperty();
    }

    /** Set by the view while the table has the focus and the keyboard, not the mouse, was used on it last. */
    public BooleanProperty keyboardOnRowsProperty() {
        return still.keyboardOnRowsProperty();
    }

    /** "3 changes wait while you work here: 1 new, 2 moved."; empty when the table shows the latest. */
    public ReadOnlyStringProperty heldTextProperty() {
        return still.heldTextProperty();
    }
}
