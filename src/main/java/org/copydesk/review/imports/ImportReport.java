package org.copydesk.review.imports;

import java.time.Duration;
import java.util.List;

/**
 * The outcome of one import. Every row read is in exactly one of {@code imported},
 * {@code alreadyPresent}, {@code revisionRows} and {@code quarantined}.
 *
 * @param format        the shape the file was read as, or null when nothing could be read
 * @param quarantined   rows kept aside, by this import or (see {@code keptAsideBefore}) an earlier one
 * @param keptAsideBefore of the rows kept aside, those an earlier import had kept aside already (the same row
 *                      text, from this file or another): reported by line, not added to the quarantine again
 * @param problems      the first {@link ImportSettings#problemsKept()} problems by line; the full list is
 *                      in the import quarantine under {@code importId}
 * @param moreProblems  problems beyond those listed
 * @param warnings      things that did not stop any row, e.g. unknown fields that were ignored
 * @param cancelled     the listener (or an interrupt) stopped the import before the end of the input
 * @param revisionRows  every row whose external id was there with a different content, by line: what happened to it
 */
public record ImportReport(String importId, String source, ImportFormat format, long rowsRead, long imported,
                           long alreadyPresent, long quarantined, long keptAsideBefore, List<ImportProblem> problems, long moreProblems,
                           List<String> warnings, long bytesRead, boolean cancelled, Duration duration,
                           List<RevisionRow> revisionRows) {

    public ImportReport {
        problems = List.copyOf(problems);
        warnings = List.copyOf(warnings);
        revisionRows = List.copyOf(revisionRows);
    }

    /** A report of an import that met no article already there with a different content. */
    public ImportReport(String importId, String source, ImportFormat format, long rowsRead, long imported,
                        long alreadyPresent, long quarantined, List<ImportProblem> problems, long moreProblems,
                        List<String> warnings, long bytesRead, boolean cancelled, Duration duration) {
        this(importId, source, format, rowsRead, imported, alreadyPresent, quarantined, 0, problems, moreProblems, warnings,
                bytesRead, cancelled, duration, List.of());
    }

    /** Rows that became a new revision (reopened ones included). */
    public long revised() {
        return revisionRows.stream().filter(r -> r.kind() != RevisionRow.Kind.ALREADY_DECIDED).count();
    }

    /** Rows with a new text for an article already approved, rejected or quarantined, left unchanged. */
    public long alreadyDecided() {
        return revisionRows.stream().filter(r -> r.kind() == RevisionRow.Kind.ALREADY_DECIDED).count();
    }

    /** True when every row read was imported or already present. */
    public boolean clean() {
        return quarantined == 0;
    }
}
