package org.copydesk.ui.supervisor;

import java.util.Comparator;
import java.util.Locale;
import java.util.function.Function;

/**
 * What "Who holds what" is sorted by inside its groups. Each key reads only what a {@link HolderRow}
 * fixed when it was read, so a sorted list stays sorted as the clock moves and a refresh can merge
 * changed rows in without re-sorting the other 10,000.
 */
public enum HolderSort {
    TIME_LEFT("time left", "soonest to run out first", "latest to run out first",
            Comparator.comparingLong(HolderRow::deadlineNanos)),
    EDITOR("editor", "A to Z", "Z to A", Comparator.comparing(r -> r.editorName().toLowerCase(Locale.ROOT))),
    // the holder's last sign of life is fixed at read time; presence is a function of it and the clock
    HOLDER("holder", "most recently active first", "longest silent first",
            Comparator.comparingLong(HolderRow::lastSeenNanos).reversed()),
    ARTICLE("article", "A to Z", "Z to A", Comparator.comparing(r -> r.title().toLowerCase(Locale.ROOT))),
    DESK("desk", "A to Z", "Z to A", null), // by the desk's name, which the caller knows
    CLAIMED("claim time", "earliest first", "latest first",
            Comparator.comparing(HolderRow::claimedAt, Comparator.nullsLast(Comparator.naturalOrder()))),
    RENEWALS("renewals", "fewest first", "most first", Comparator.comparingInt(HolderRow::renewals)),
    NUMBER("article number", "lowest first", "highest first", Comparator.comparingLong(HolderRow::id));

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

    /** This key in the given direction, ties broken by time left and then by article number. */
    Comparator<HolderRow> comparator(boolean ascendingOrder, Function<String, String> deskName) {
        Comparator<HolderRow> key = this == DESK
                ? Comparator.comparing(r -> deskName.apply(r.desk()).toLowerCase(Locale.ROOT)) : order;
        Comparator<HolderRow> byTimeLeft = Comparator.comparingLong(HolderRow::deadlineNanos).thenComparingLong(HolderRow::id);
        return (ascendingOrder ? key : key.reversed()).thenComparing(byTimeLeft);
    }

    /** "By editor, A to Z": what the toolbar says about the current order. */
    String describe(boolean ascendingOrder) {
        return "By " + label + ", " + (ascendingOrder ? ascending : descending);
    }
}
