package org.copydesk.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.imports.ArticleImporter;
import org.copydesk.review.imports.DropFolder;
import org.copydesk.review.imports.ImportListener;
import org.copydesk.review.imports.ImportProgress;
import org.copydesk.review.imports.ImportReport;
import org.copydesk.review.imports.ImportReportText;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
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

    @Parameters(arity = "0..*", paramLabel = "FILE")
    List<Path> files;

    @Option(names = "--watch", paramLabel = "DIR",
            description = "keep watching DIR: import each file that arrives once, move it to DIR/done or DIR/failed"
                    + " with a report beside it; survives being stopped half-way through a file (Ctrl-C stops)")
    Path watch;

    @Option(names = "--reopen",
            description = "a new version of an article already approved, rejected or quarantined reopens it for review"
                    + " (without it such rows are reported as already decided and change nothing)")
    boolean reopen;

    @Option(names = "--interval", defaultValue = "2s", converter = Durations.class,
            description = "with --watch: how often to look (default: ${DEFAULT-VALUE})")
    Duration interval;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        if ((watch == null) == (files == null || files.isEmpty())) {
            throw new Cli.CommandFailure("Give the files to import, or --watch DIR (not both).");
        }
        if (watch != null) {
            return watch(out);
        }
        boolean anyKeptAside = false;
        try (ReviewSession session = database.open(2)) {
            ArticleImporter importer = session.importer();
            if (reopen) {
                importer = importer.reopeningDecided();
            }
            for (Path file : files) {
                ImportReport report = importer.importFile(file, session.sessionUser(), new ProgressPrinter(out, file));
                print(out, report);
                anyKeptAside |= !report.clean();
            }
        }
        return anyKeptAside ? SOME_ROWS_KEPT_ASIDE : 0;
    }

    /** The long-running drop folder: like the release daemon, until stopped. */
    private int watch(PrintWriter out) throws InterruptedException {
        try (ReviewSession session = database.open(2)) {
            DropFolder folder = new DropFolder(watch, session.importer(), session.sessionUser(), Clock.systemUTC(),
                    new DropFolder.Listener() {
                        @Override
                        public void finished(DropFolder.Finished f) {
                            out.println((f.failed() ? "FAILED " : "Imported ") + f.name() + (f.resumed() ? " (resumed)" : "")
                                    + " -> " + f.movedTo() + (f.outcome() == null ? "" : ": " + f.outcome().imported()
                                    + " new, " + f.outcome().alreadyPresent() + " already present, " + f.outcome().quarantined()
                                    + " kept aside") + ".");
                            out.flush();
                        }

                        @Override
                        public void waiting(String name, String why) {
                            out.println("Waiting to import " + name + ": " + why);
                            out.flush();
                        }
                    });
            Runtime.getRuntime().addShutdownHook(new Thread(folder::stop, "stop-watching"));
            try (var watching = folder.lock()) {
                announce(out);
                folder.run(interval);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return 0;
    }

    private void announce(PrintWriter out) {
        out.println("Watching " + watch.toAbsolutePath() + " every " + Durations.format(interval)
                + ". Files go to done/ or failed/ with a report. Ctrl-C stops.");
        out.flush();
    }

    private static void print(PrintWriter out, ImportReport r) {
        out.print(ImportReportText.of(r));
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
