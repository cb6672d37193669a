package org.copydesk.ui.supervisor;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.copydesk.ui.common.Messages;

/**
 * What the holders table would change if it showed the latest rows now, while it holds still under
 * a supervisor's pointer: leases that came, leases that left, and rows that would move. "Moved" is
 * the fewest rows that must move to turn one order into the other (the rows outside the longest
 * run kept in the same relative order), so one renewed lease sliding down counts once, not once
 * for every row it passes.
 */
record HeldChanges(int added, int gone, int moved) {

    static final HeldChanges NONE = new HeldChanges(0, 0, 0);

    static HeldChanges between(List<Long> shown, List<Long> latest) {
        Set<Long> before = new HashSet<>(shown);
        Set<Long> after = new HashSet<>(latest);
        int added = 0;
        Map<Long, Integer> position = new HashMap<>();
        for (Long id : shown) {
            if (after.contains(id)) {
                position.put(id, position.size());
            }
        }
        int[] sequence = new int[position.size()];
        int n = 0;
        for (Long id : latest) {
            Integer p = position.get(id);
            if (p == null) {
                added += before.contains(id) ? 0 : 1;
            } else {
                sequence[n++] = p;
            }
        }
        int gone = shown.size() - position.size();
        return new HeldChanges(added, gone, n - longestIncreasingRun(Arrays.copyOf(sequence, n)));
    }

    /** Length of the longest strictly increasing subsequence (patience sorting, n log n). */
    private static int longestIncreasingRun(int[] values) {
        List<Integer> tails = new ArrayList<>();
        for (int v : values) {
            int lo = 0;
            int hi = tails.size();
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (tails.get(mid) < v) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            if (lo == tails.size()) {
                tails.add(v);
            } else {
                tails.set(lo, v);
            }
        }
        return tails.size();
    }

    int total() {
        return added + gone + moved;
    }

    boolean any() {
        return total() > 0;
    }

    /** "3 changes wait while you work here: 1 new, 1 ended, 1 moved." */
    String describe() {
        if (!any()) {
            return "";
        }
        List<String> parts = new ArrayList<>();
        if (added > 0) {
            parts.add(Messages.text("dashboard.holders.changes.added", added));
        }
        if (gone > 0) {
            parts.add(Messages.text("dashboard.holders.changes.ended", gone));
        }
        if (moved > 0) {
            parts.add(Messages.text("dashboard.holders.changes.moved", moved));
        }
        return Messages.text("dashboard.holders.changes.waiting", total(), String.join(", ", parts));
    }
}
