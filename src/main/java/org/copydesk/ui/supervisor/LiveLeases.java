package org.copydesk.ui.supervisor;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import org.copydesk.review.Supervision;
import org.copydesk.review.Supervision.ActiveLease;
import org.copydesk.ui.supervisor.HoldersViewModel.RefreshCost;

/**
 * Keeps the holders table true from the event log: every refresh asks which articles had events
 * since the last one and re-reads only those leases, so a refresh costs what changed, not what is
 * held. An editor's Get articles / Reload is one event of the editor's for all the leases it
 * refreshed, so their leases are re-read too. A full reload every minute is the safety net for what the log cannot show in id order (a
 * transaction that committed after a later id was read). Each refresh's rows go into the
 * {@link HoldersTable}; showing them is the view model's part.
 */
final class LiveLeases {

    /** What the view model does with the rows a refresh merged into the table. */
    @FunctionalInterface
    interface MergeShown {
        /** @param atOnce an action asked to see its effect: shown now, even while the rows hold still */
        void show(HoldersTable.Merge merge, boolean atOnce);
    }

    private record Delta(boolean full, boolean atOnce, Set<Long> asked, List<ActiveLease> leases, long latestEventId, long databaseNanos) {
    }

    private final DashboardContext context;
    private final HoldersTable table;
    private final MergeShown shown;
    private final Runnable recount;
    private final StringProperty error = new SimpleStringProperty("");
    private final ObjectProperty<RefreshCost> lastRefresh = new SimpleObjectProperty<>();
    private long cursor;
    private boolean refreshing;
    private boolean loaded;
    private boolean showNextRefresh;
    private long lastRefreshNanos;
    private long lastFullNanos;

    /**
     * @param shown   shows what a refresh changed in the table
     * @param recount says the count again once a refresh is in (the first one ends "loading")
     */
    LiveLeases(DashboardContext context, HoldersTable table, MergeShown shown, Runnable recount) {
        this.context = context;
        this.table = table;
        this.shown = shown;
        this.recount = recount;
    }

    /** Re-reads every active lease (and diffs it against the table). */
    void reloadAll() {
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
    void refresh() {
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
            // an editor's reload is one row for all the leases it refreshed: re-read every lease they hold
            List<ActiveLease> leases = supervision.activeLeases(changes.articleIds(), changes.reloadedBy());
            Set<Long> asked = new HashSet<>(changes.articleIds());
            leases.forEach(a -> asked.add(a.articleId()));
            return new Delta(false, atOnce, asked, leases, changes.latestEventId(), System.nanoTime() - started);
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

    /** On a tick: the refresh when due, and every so often the full reload instead. */
    void refreshIfDue(long now) {
        if (!refreshing && now - lastRefreshNanos >= context.settings.refreshInterval().toNanos()) {
            if (now - lastFullNanos >= context.settings.fullReloadInterval().toNanos()) {
                reloadAll();
            } else {
                refresh();
            }
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
        shown.show(merge, delta.atOnce());
        lastRefresh.set(new RefreshCost(delta.full(), delta.asked().size(), merge.rowsChanged(), table.size(),
                delta.databaseNanos(), System.nanoTime() - started));
        recount.run();
    }

    private void onRefreshFailed(Throwable failure) {
        refreshing = false;
        context.failed(failure, error);
    }

    /** Whether the first read is in: until then the table says it is loading. */
    boolean loaded() {
        return loaded;
    }

    /** Why the last refresh failed (a lost connection shows in the banner instead); empty when it worked. */
    StringProperty error() {
        return error;
    }

    ReadOnlyObjectProperty<RefreshCost> lastRefreshProperty() {
        return lastRefresh;
    }
}
