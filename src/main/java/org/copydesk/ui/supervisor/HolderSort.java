package org.copydesk.ui.supervisor;

import java.util.Comparator;
import java.util.Locale;
import java.util.function.Function;
import org.copydesk.ui.common.Messages;

/**
 * What "Who holds what" is sorted by inside its groups. Each key reads only what a {@link HolderRow}
 * fixed when it was read, so a sorted list stays sorted as the clock moves and a refresh can merge
 * changed rows in without re-sorting the other 10,000.
 *
 * <p>The default, {@link #DEFAULT}, is by editor, and ties go by claim time and article number:
 * none of these changes when a lease renews or is extended, so the rows hold still unless a lease
 * comes, goes or changes hands. Time left (which every renewal changes) orders the rows only when
 * the supervisor chooses it.
 */
public enum HolderSort {
    TIME_LEFT("dashboard.holders.sort.timeLeft", "dashboard.holders.sort.soonestFirst", "dashboard.holders.sort.latestFirst",
            Comparator.comparingLong(HolderRow::deadlineNanos)),
    EDITOR("dashboard.holders.sort.editor", "dashboard.holders.sort.aToZ", "dashboard.holders.sort.zToA",
            Comparator.comparing(r -> r.editorName().toLowerCase(Locale.ROOT))),
    // the holder's last sign of life is fixed at read time; presence is a function of it and the clock
    HOLDER("dashboard.holders.sort.holder", "dashboard.holders.sort.activeFirst", "dashboard.holders.sort.silentFirst",
            Comparator.comparingLong(HolderRow::lastSeenNanos).reversed()),
    ARTICLE("dashboard.holders.sort.article", "dashboard.holders.sort.aToZ", "dashboard.holders.sort.zToA",
            Comparator.comparing(r -> r.title().toLowerCase(Locale.ROOT))),
    DESK("dashboard.holders.sort.desk", "dashboard.holders.sort.aToZ", "dashboard.holders.sort.zToA",
            null), // by the desk's name, which the caller knows
    CLAIMED("dashboard.holders.sort.claimTime", "dashboard.holders.sort.earliestFirst", "dashboard.holders.sort.latestClaimFirst",
            Comparator.comparing(HolderRow::claimedAt, Comparator.nullsLast(Comparator.naturalOrder()))),
    RENEWALS("dashboard.holders.sort.renewals", "dashboard.holders.sort.fewestFirst", "dashboard.holders.sort.mostFirst",
            Comparator.comparingInt(HolderRow::renewals)),
    NUMBER("dashboard.holders.sort.number", "dashboard.holders.sort.lowestFirst", "dashboard.holders.sort.highestFirst",
            Comparator.comparingLong(HolderRow::id));

    /** What the table is sorted by until the supervisor chooses a column. */
    static final HolderSort DEFAULT = EDITOR;
    static final boolean DEFAULT_ASCENDING = true;

    private final String label;
    private final String ascending;
    private final String descending;
    private final Comparator<HolderRow> order;

    HolderSort(String label, String ascending, String descending, Comparator<HolderRow> order) {
        this.label = label;
        this.ascending = ascending;
        this.descending = descending;
        this.order = order;
    }

    /**
     * This key in the given direction, ties broken by claim time and then by article number: what
     * a renewal leaves alone, so equal rows do not trade places every minute.
     */
    Comparator<HolderRow> comparator(boolean ascendingOrder, Function<String, String> deskName) {
        Comparator<HolderRow> key = this == DESK
                ? Comparator.comparing(r -> deskName.apply(r.desk()).toLowerCase(Locale.ROOT)) : order;
        Comparator<HolderRow> stable = Comparator.comparing(HolderRow::claimedAt, Comparator.nullsLast(Comparator.naturalOrder()))
                .thenComparingLong(HolderRow::id);
        return (ascendingOrder ? key : key.reversed()).thenComparing(stable);
    }

    /** "By editor, A to Z": what the toolbar says about the current order. */
    String describe(boolean ascendingOrder) {
        return Messages.text("dashboard.holders.sort.describe", Messages.text(label),
                Messages.text(ascendingOrder ? ascending : descending));
    }
}
