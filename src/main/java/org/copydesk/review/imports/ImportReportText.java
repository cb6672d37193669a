package org.copydesk.review.imports;

import java.util.Locale;

/** An import's report in plain words, as the command line prints it and the drop folder files it. */
public final class ImportReportText {

    private ImportReportText() {
    }

    public static String of(ImportReport r) {
        StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT, "%s: %,d row(s) read: %,d imported, %,d already present, %,d kept aside (%s, %.1f s).%n",
                r.source(), r.rowsRead(), r.imported(), r.alreadyPresent(), r.quarantined(),
                r.format() == null ? "unreadable" : r.format().displayName(), r.duration().toMillis() / 1000.0));
        if (!r.revisionRows().isEmpty()) {
            s.append(String.format(Locale.ROOT, "  %,d row(s) with a new version of an article already there: %,d revised, %,d already decided.%n",
                    r.revisionRows().size(), r.revised(), r.alreadyDecided()));
            for (RevisionRow v : r.revisionRows()) {
                s.append(String.format(Locale.ROOT, "  line %d: %s (article %d, revision %d): %s%n", v.line(),
                        ImportText.visible(v.externalId(), 80), v.articleId(), v.revision(), v.kind().description()));
            }
        }
        for (ImportProblem p : r.problems()) {
            s.append(String.format(Locale.ROOT, "  line %d: %s%n", p.line(), p.reason()));
        }
        if (r.moreProblems() > 0) {
            s.append(String.format(Locale.ROOT, "  … and %,d more.%n", r.moreProblems()));
        }
        if (r.quarantined() > r.keptAsideBefore()) {
            s.append("  Rows kept aside are in the import quarantine under import ").append(r.importId())
                    .append(r.keptAsideBefore() > 0 ? " (and the earlier imports below)" : "")
                    .append("; a supervisor can correct and requeue them.").append(System.lineSeparator());
        } else if (!r.clean()) {
            // a file dropped again: its bad rows are under the import that kept them aside first, not this one
            s.append("  Rows kept aside are in the import quarantine under the earlier import named below;")
                    .append(" a supervisor can correct and requeue them.").append(System.lineSeparator());
        }
        r.warnings().forEach(w -> s.append("  note: ").append(w).append(System.lineSeparator()));
        if (r.cancelled()) {
            s.append("  The import was stopped before the end of the file.").append(System.lineSeparator());
        }
        return s.toString();
    }
}
