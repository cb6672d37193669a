package org.copydesk.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.Callable;
import org.copydesk.review.ReviewServices;
import org.copydesk.review.imports.ArticleImporter;
import org.copydesk.review.imports.ImportListener;
import org.copydesk.review.imports.ImportProblem;
import org.copydesk.review.imports.ImportProgress;
import org.copydesk.review.imports.ImportReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code copydesk import FILE…}: JSON (array or one object per line) and CSV with a header row.
 * Good rows go in; bad rows are reported with their line numbers and kept in the import
 * quarantine. Exit code 0 when every row went in (or was there already), 3 when some were kept aside.
 */
@Command(name = "import", mixinStandardHelpOptions = true,
        description = {"Imports articles from JSON or CSV files (see docs/import-format.md).",
                "Bad rows are reported by line and kept aside; exit code 3 when there were any."})
final class ImportCommand implements Callable<Integer> {

    /** Exit code when the import went through but some rows were kept aside. */
    static final int SOME_ROWS_KEPT_ASIDE = 3;

    @Mixin
    DatabaseOptions database;

    @Parameters(arity = "1..*", paramLabel = "FILE")
    List<Path> files;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        boolean anyKeptAside = false;
        try (ReviewServices services = database.open(2)) {
            ArticleImporter importer = new ArticleImporter(services.database().dsl(), Clock.systemUTC());
            for (Path file : files) {
                ImportReport report = importer.importFile(file, services.sessionUser(), new ProgressPrinter(out, file));
                print(out, report);
                anyKeptAside |= !report.clean();
            }
        }
        return anyKeptAside ? SOME_ROWS_KEPT_ASIDE : 0;
    }

    private static void print(PrintWriter out, ImportReport r) {
        out.printf("%s: %,d row(s) read: %,d imported, %,d already present, %,d kept aside (%s, %.1f s).%n", r.source(),
                r.rowsRead(), r.imported(), r.alreadyPresent(), r.quarantined(),
                r.format() == null ? "unreadable" : r.format().displayName(), r.duration().toMillis() / 1000.0);
        for (ImportProblem p : r.problems()) {
            out.printf("  line %d: %s%n", p.line(), p.reason());
        }
        if (r.moreProblems() > 0) {
            out.printf("  … and %,d more.%n", r.moreProblems());
        }
        if (!r.clean()) {
            out.println("  Rows kept aside are in the import quarantine under import " + r.importId()
                    + "; a supervisor can correct and requeue them.");
        }
        r.warnings().forEach(w -> out.println("  note: " + w));
        if (r.cancelled()) {
            out.println("  The import was stopped before the end of the file.");
        }
        out.flush();
    }

    /** A progress line about once a second for large files. */
    private static final class ProgressPrinter implements ImportListener {
        private final PrintWriter out;
        private final Path file;
        private long lastPrinted = System.nanoTime();

        ProgressPrinter(PrintWriter out, Path file) {
            this.out = out;
            this.file = file;
        }

        @Override
        public void progress(ImportProgress p) {
            long now = System.nanoTime();
            if (now - lastPrinted < 1_000_000_000L) {
                return;
            }
            lastPrinted = now;
            double f = p.fractionRead();
            out.printf("%s: %,d rows read%s…%n", file.getFileName(), p.rowsRead(), f >= 0 ? String.format(" (%.0f%%)", f * 100) : "");
            out.flush();
        }
    }
}
