package org.copydesk.ui.supervisor;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;
import org.copydesk.review.Supervision.ActiveLease;
import org.copydesk.ui.common.Messages;

/**
 * "Who holds what" as plain Java: every active lease in display order, merged with what a refresh
 * read, cleared of leases that ran out, filtered, grouped and sorted. No JavaFX here, so it is
 * tested directly; {@link HoldersViewModel} shows its {@link #visible()} rows.
 *
 * <p>The rows are a plain array, merged linearly on each change: with 10,000 rows, JavaFX's
 * FilteredList and SortedList spend O(rows) per removed row, which made a refresh of a few hundred
 * changes take a quarter of a second on the FX thread (see docs/benchmarks.md).
 */
final class HoldersTable {

    /** One group in the side list: a holder or a desk, with how many leases it has. */
    public record GroupSummary(String key, String label, int leases) {
        @Override
        public String toString() {
            return label + " (" + leases + ")";
        }
    }

    /** What one merge changed: rows that left, rows that came (a changed lease counts in both). */
    record Merge(Set<Long> gone, List<HolderRow> added) {
        int rowsChanged() {
            int both = 0;
            for (HolderRow r : added) {
                if (gone.contains(r.id())) {
                    both++;
                }
            }
            return gone.size() + added.size() - both;
        }

        boolean changed() {
            return !gone.isEmpty() || !added.isEmpty();
        }
    }

    private final Function<String, String> deskName;
    private final Map<Long, HolderRow> byId = new HashMap<>();
    private final List<HolderRow> ordered = new ArrayList<>();
    private HolderSort sortKey = HolderSort.DEFAULT;
    private boolean ascending = HolderSort.DEFAULT_ASCENDING;
    private Grouping grouping = Grouping.NONE;
    private String search = "";
    private GroupSummary groupFilter;
    private Comparator<HolderRow> order;
    private Predicate<HolderRow> filter = r -> true;
    private long nextExpiryNanos = Long.MAX_VALUE;

    /** @param deskName a desk's name from its id (desks sort, group and match by name) */
    HoldersTable(Function<String, String> deskName) {
        this.deskName = deskName;
        this.order = comparator();
    }

    /**
     * Takes in what the server said about the {@code asked} articles: those without a lease in
     * {@code leases} leave, new or changed ones are (re)placed in order. Unchanged rows stay the
     * same objects.
     */
    Merge merge(Collection<Long> asked, List<ActiveLease> leases, long readAtNanos) {
        Map<Long, ActiveLease> fresh = new HashMap<>(leases.size() * 2);
        leases.forEach(a -> fresh.put(a.articleId(), a));
        Set<Long> gone = new HashSet<>();
        List<HolderRow> added = new ArrayList<>();
        for (Long id : asked) {
            HolderRow old = byId.get(id);
            ActiveLease now = fresh.get(id);
            if (now == null) {
                if (old != null) {
                    gone.add(id);
                    byId.remove(id);
                }
            } else if (old == null || !old.sameAs(now)) {
                if (old != null) {
                    gone.add(id);
                }
                HolderRow row = new HolderRow(now, readAtNanos);
                byId.put(id, row);
                added.add(row);
            }
        }
        if (!gone.isEmpty()) {
            ordered.removeIf(r -> gone.contains(r.id()));
        }
        if (!added.isEmpty()) {
            insertInOrder(added);
        }
        if (!gone.isEmpty() || !added.isEmpty()) {
            nextExpiryNanos = earliestDeadline();
        }
        return new Merge(gone, added);
    }

    /** Removes the leases that ran out by {@code nowNanos} (a lease ends at its expiry, event or not). */
    Set<Long> expire(long nowNanos) {
        if (nowNanos < nextExpiryNanos) {
            return Set.of();
        }
        Set<Long> ids = new HashSet<>();
        for (HolderRow r : ordered) {
            if (r.expired(nowNanos)) {
                ids.add(r.id());
            }
        }
        ids.forEach(byId::remove);
        ordered.removeIf(r -> ids.contains(r.id()));
        nextExpiryNanos = earliestDeadline();
        return ids;
    }

    private long earliestDeadline() {
        long next = Long.MAX_VALUE;
        for (HolderRow r : ordered) {
            next = Math.min(next, r.deadlineNanos());
        }
        return next;
    }

    /** Adds rows in display order: the new ones sorted, then one linear merge. */
    private void insertInOrder(List<HolderRow> added) {
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

    // --- order --------------------------------------------------------------------------------------

    /**
     * Sorts by {@code key} inside the groups; ties go by claim time. False when nothing changes, so
     * a table that asks after every refresh costs nothing.
     */
    boolean sortBy(HolderSort key, boolean ascendingOrder) {
        if (key == sortKey && ascendingOrder == ascending) {
            return false;
        }
        sortKey = key;
        ascending = ascendingOrder;
        reorder();
        return true;
    }

    HolderSort sortKey() {
        return sortKey;
    }

    boolean ascending() {
        return ascending;
    }

    /** Groups by holder or desk; the group chosen in the side list is cleared. */
    void groupBy(Grouping g) {
        grouping = g;
        groupFilter = null;
        reorder();
        updateFilter();
    }

    Grouping grouping() {
        return grouping;
    }

    /** Sorts again, e.g. once the desks' names are known. */
    void reorder() {
        order = comparator();
        ordered.sort(order);
    }

    private Comparator<HolderRow> comparator() {
        Comparator<HolderRow> inGroup = sortKey.comparator(ascending, deskName);
        Grouping g = grouping;
        return g == Grouping.NONE ? inGroup : Comparator.comparing((HolderRow r) -> groupLabel(g, r).toLowerCase(Locale.ROOT))
                .thenComparing(inGroup);
    }

    /** Groups appear in the order of their labels, as the side list shows them. */
    private String groupLabel(Grouping g, HolderRow r) {
        return g == Grouping.EDITOR ? r.editorName() : deskName.apply(r.desk());
    }

    // --- filter -------------------------------------------------------------------------------------

    /** Matches title, editor name or id, desk name, or the exact article number. */
    void search(String text) {
        search = text == null ? "" : text.strip();
        updateFilter();
    }

    String search() {
        return search;
    }

    /** Shows only one group of the side list; null shows all. A group that no longer exists is dropped. */
    void showGroup(GroupSummary group) {
        groupFilter = group;
        updateFilter();
    }

    GroupSummary groupFilter() {
        return groupFilter;
    }

    private void updateFilter() {
        String text = search.toLowerCase(Locale.ROOT);
        GroupSummary group = groupFilter;
        Grouping g = grouping;
        filter = text.isEmpty() && group == null ? r -> true
                : r -> (group == null || g.keyOf(r).equals(group.key()))
                && (text.isEmpty() || r.title().toLowerCase(Locale.ROOT).contains(text)
                || r.editorName().toLowerCase(Locale.ROOT).contains(text) || r.editorId().toLowerCase(Locale.ROOT).contains(text)
                || deskName.apply(r.desk()).toLowerCase(Locale.ROOT).contains(text) || Long.toString(r.id()).equals(text));
    }

    // --- what is shown ------------------------------------------------------------------------------

    /** The rows that pass the search and group, in display order. */
    List<HolderRow> visible() {
        List<HolderRow> visible = new ArrayList<>(ordered.size());
        for (HolderRow r : ordered) {
            if (filter.test(r)) {
                visible.add(r);
            }
        }
        return visible;
    }

    boolean shows(HolderRow row) {
        return byId.get(row.id()) != null && filter.test(byId.get(row.id()));
    }

    /** Every active lease, unfiltered, in display order. */
    List<HolderRow> all() {
        return Collections.unmodifiableList(ordered);
    }

    /** The lease's current row, or null if it is not active (any more). */
    HolderRow get(long articleId) {
        return byId.get(articleId);
    }

    int size() {
        return ordered.size();
    }

    /** The side list under the current grouping, by label; keeps the chosen group (with its new count). */
    List<GroupSummary> groups() {
        Grouping g = grouping;
        if (g == Grouping.NONE) {
            return List.of();
        }
        Map<String, int[]> counts = new HashMap<>();
        Map<String, String> labels = new HashMap<>();
        for (HolderRow r : ordered) {
            String key = g.keyOf(r);
            counts.computeIfAbsent(key, k -> new int[1])[0]++;
            labels.putIfAbsent(key, groupLabel(g, r));
        }
        List<GroupSummary> list = new ArrayList<>();
        counts.forEach((k, n) -> list.add(new GroupSummary(k, labels.get(k), n[0])));
        list.sort(Comparator.comparing((GroupSummary s) -> s.label().toLowerCase(Locale.ROOT)));
        if (groupFilter != null) {
            String chosen = groupFilter.key();
            groupFilter = list.stream().filter(s -> s.key().equals(chosen)).findFirst().orElse(null);
        }
        return list;
    }

    /** "3 of 14 active leases · live". */
    String summary(int visible) {
        int all = ordered.size();
        return visible == all ? Messages.text("dashboard.holders.summary", all)
                : Messages.text("dashboard.holders.summaryFiltered", visible, all);
    }

    /** What the empty table says: nobody holds anything, or nothing matches the search or group. */
    String emptyText() {
        int all = ordered.size();
        if (all == 0) {
            return Messages.text("dashboard.holders.empty");
        }
        if (!search.isEmpty()) {
            return groupFilter == null ? Messages.text("dashboard.holders.noMatch", search, all)
                    : Messages.text("dashboard.holders.noMatchInGroup", search, groupFilter.label(), all);
        }
        return groupFilter == null ? "" : Messages.text("dashboard.holders.noneInGroup", groupFilter.label(), all);
    }
}
