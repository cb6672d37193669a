package org.copydesk.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.imports.ArticleImporter;
import org.copydesk.review.imports.DropFolder;
import org.copydesk.review.imports.ImportFailedException;
import org.copydesk.review.imports.ImportListener;
import org.copydesk.review.imports.ImportProgress;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code copydesk import FILE…}: JSON (array or one object per line) and CSV with a header row.
 * Good rows go in; bad rows are reported with their line numbers and kept in the import
 * quarantine. A file that cannot be imported does not stop the others. The exit code is the worst
 * file's ({@link ExitCode}).
 */
@Command(name = "import",
        description = {"Imports articles from JSON or CSV files (see docs/import-format.md).",
                "Bad rows are reported by line and kept aside. With --watch DIR, a drop folder: each file that arrives is"
                        + " imported once and moved to DIR/done or DIR/failed with a report beside it."})
final class ImportCommand extends DatabaseCommand<ReviewSession> {

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

    @Option(names = "--quiet", defaultValue = "10s", converter = Durations.class,
            description = "with --watch: a file is taken once it has not changed for this long (default: ${DEFAULT-VALUE});"
                    + " writing it under a name ending in .part and renaming it when complete is surer")
    Duration quiet;

    @Option(names = "--json", description = "one JSON object per file, each on one line (the shape is in docs/import-format.md)")
    boolean json;

    ImportCommand() {
        super(DatabaseAccess.WORK);
    }

    @Override
    void beforeOpening() {
        if ((watch == null) == (files == null || files.isEmpty())) {
            throw usage("Give the files to import, or --watch DIR (not both).");
        }
        if (interval.isZero() || interval.isNegative() || quiet.isNegative()) {
            throw usage("--interval must be a positive duration (e.g. 2s), and --quiet 0s or more (e.g. 10s).");
        }
    }

    @Override
    ExitCode run(ReviewSession session) throws InterruptedException {
        ImportOutput output = new ImportOutput(out(), err(), json);
        ArticleImporter importer = reopen ? session.importer().reopeningDecided() : session.importer();
        if (watch != null) {
            return watch(session, importer, output);
        }
        for (Path file : files) {
            try {
                output.imported(file, importer.importFile(file, session.sessionUser(),
                        json ? ImportListener.NONE : new ProgressPrinter(out(), file)));
            } catch (ImportFailedException e) {
                output.failed(file, e); // the next file may well import
            }
        }
        return output.exitCode();
    }

    /** The long-running drop folder: like the release daemon, until stopped. */
    private ExitCode watch(ReviewSession session, ArticleImporter importer, ImportOutput output) throws InterruptedException {
        DropFolder folder = new DropFolder(watch, importer, session.sessionUser(), DropFolder.Timing.of(interval, quiet),
                new DropFolder.Listener() {
                    @Override
                    public void finished(DropFolder.Finished f) {
                        output.finished(f);
                    }

                    @Override
                    public void waiting(String name, String why) {
                        output.waiting(name, why);
                    }
                });
        Runtime.getRuntime().addShutdownHook(new Thread(folder::stop, "stop-watching"));
        try (var watching = folder.lock()) {
            if (!json) {
                PrintWriter out = out();
                out.println("Watching " + watch.toAbsolutePath() + ": looking every " + Durations.inWords(interval)
                        + ", a file is taken once unchanged for " + Durations.inWords(quiet)
                        + ". Files go to done/ or failed/ with a report. Ctrl-C stops.");
                out.flush();
            }
            folder.run();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return ExitCode.OK;
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
