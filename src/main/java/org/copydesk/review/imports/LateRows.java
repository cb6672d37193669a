package org.copydesk.review.imports;

import java.util.List;
import java.util.stream.Collectors;

/** The import report's line about rows that arrived already past their due time (taken, and late). */
final class LateRows {

    /** Lines listed at most; the count says how many there were. */
    static final int LINES_LISTED = 20;

    private LateRows() {
    }

    static String warning(List<Long> lines) {
        List<Long> sorted = lines.stream().sorted().toList();
        String listed = sorted.stream().limit(LINES_LISTED).map(String::valueOf).collect(Collectors.joining(", "));
        return sorted.size() + (sorted.size() == 1 ? " article was" : " articles were") + " already past the due time when imported:"
                + " taken and marked late (line" + (sorted.size() == 1 ? " " : "s ") + listed
                + (sorted.size() > LINES_LISTED ? ", …" : "") + ")";
    }
}
