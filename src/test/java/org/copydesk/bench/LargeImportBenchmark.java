package org.copydesk.bench;

import java.io.BufferedWriter;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import org.copydesk.db.DataSources;
import org.copydesk.db.Database;
import org.copydesk.db.EmbeddedServer;
import org.copydesk.review.Newsroom;
import org.copydesk.review.imports.ArticleImporter;
import org.copydesk.review.imports.DropFolder;
import org.copydesk.review.imports.ImportListener;
import org.copydesk.review.imports.ImportProgress;
import org.copydesk.review.imports.ImportReport;

/**
 * The import at volume: 100,000 rows (about 39 MB of JSON lines) through the real server, once
 * into an empty newsroom, once again (every row already present), and once through the watched drop
 * folder (which also hashes the file, reads it whole for the encoding check and waits for it to be
 * quiet). The baseline is a tenth of the rows imported in the same run: rows per second at 100,000
 * divided by rows per second at 10,000 says whether the time per row grows with the file (it must
 * not: the import streams). Each cell gets a schema of its own. Not a test: a main on the test class
 * path ({@code mvn -q test-compile exec:exec@large-import-benchmark}) that prints a table and
 * rewrites its block of docs/benchmarks.md. {@code StreamingImportTest} keeps the small proof in
 * the test suite.
 */
public final class LargeImportBenchmark {

    private static final int ROWS = Integer.getInteger("bench.rows", 100_000);
    private static final int BASELINE_ROWS = Integer.getInteger("bench.baselineRows", ROWS / 10);

    private record Cell(String label, int rows, long millis, ImportReport report, long peakHeapMb) {
        double rowsPerSecond() {
            return rows * 1000.0 / Math.max(1, millis);
        }
    }

    private LargeImportBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        Path work = Path.of(System.getProperty("bench.workdir", "target/bench-import-db"));
        Path report = Path.of(System.getProperty("bench.report", "docs/benchmarks.md"));
        Files.createDirectories(work);
        Files.createDirectories(Path.of(System.getProperty("java.io.tmpdir")));
        LocalDateTime started = LocalDateTime.now().truncatedTo(ChronoUnit.MINUTES);
        long t0 = System.nanoTime();
        Path small = write(work.resolve("baseline.ndjson"), "base", BASELINE_ROWS);
        Path large = write(work.resolve("large.ndjson"), "big", ROWS);
        EmbeddedServer server = EmbeddedServer.startOrAttach(new EmbeddedServer.Options(work.resolve("server"), "127.0.0.1",
                0, EmbeddedServer.Mode.DESKTOP, Duration.ofSeconds(90)));
        List<Cell> cells = new ArrayList<>();
        String product;
        try {
            try (Database db = schema(server, "bench_import_base")) {
                product = db.capabilities().product();
                cells.add(importOnce("baseline: " + String.format(Locale.ROOT, "%,d", BASELINE_ROWS) + " rows, first import",
                        db, small, BASELINE_ROWS));
            }
            try (Database db = schema(server, "bench_import_large")) {
                cells.add(importOnce(String.format(Locale.ROOT, "%,d rows, first import", ROWS), db, large, ROWS));
                cells.add(importOnce(String.format(Locale.ROOT, "%,d rows again (all already present)", ROWS), db, large, ROWS));
            }
            try (Database db = schema(server, "bench_import_drop")) {
                cells.add(throughDropFolder(db, large, work.resolve("drop")));
            }
        } finally {
            server.close();
        }
        Duration total = Duration.ofNanos(System.nanoTime() - t0);
        String markdown = render(cells, started, product, Files.size(large), total);
        System.out.println(markdown);
        if (!Boolean.getBoolean("bench.noReport")) {
            GeneratedBlock.write(report, "large-import-benchmark", "LargeImportBenchmark", markdown);
            System.out.println("wrote " + report);
        }
    }

    private static Database schema(EmbeddedServer server, String name) {
        Database db = Database.open(server.jdbcUrl(name), EmbeddedServer.ROOT_USER, server.rootPassword(), null,
                DataSources.PoolSize.of(2), Database.SchemaAction.MIGRATE, null);
        db.dsl().execute("delete from lease_event");
        db.dsl().execute("delete from import_quarantine");
        db.dsl().execute("delete from article");
        Newsroom newsroom = new Newsroom(db.dsl());
        for (String desk : List.of("news", "sport")) {
            if (newsroom.desk(desk).isEmpty()) {
                newsroom.addDesk(desk, desk, Duration.ofMinutes(30));
            }
        }
        return db;
    }

    private static Path write(Path file, String prefix, int rows) throws Exception {
        try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            for (int i = 0; i < rows; i++) {
                w.write("{\"external_id\": \"" + prefix + "-" + i + "\", \"desk\": \"" + (i % 2 == 0 ? "news" : "sport")
                        + "\", \"title\": \"Story number " + i + "\", \"byline\": \"Desk writer\", \"priority\": "
                        + (1 + i % 5) + ", \"body\": \"" + "Lorem ipsum dolor sit amet. ".repeat(10) + i + "\"}\n");
            }
        }
        return file;
    }

    private static Cell importOnce(String label, Database db, Path file, int rows) {
        AtomicLong peak = new AtomicLong();
        ImportListener sampler = new ImportListener() {
            @Override
            public void progress(ImportProgress progress) {
                peak.accumulateAndGet(heapUsedMb(), Math::max);
            }
        };
        long start = System.nanoTime();
        ImportReport r = new ArticleImporter(db.dsl(), Clock.systemUTC()).importFile(file, "bench", sampler);
        long millis = (System.nanoTime() - start) / 1_000_000;
        check(r.imported() + r.alreadyPresent() == rows, label + ": " + r);
        say("%-60s %,8d ms  %,8.0f rows/s", label, millis, rows * 1000.0 / Math.max(1, millis));
        return new Cell(label, rows, millis, r, peak.get());
    }

    private static Cell throughDropFolder(Database db, Path file, Path dir) throws Exception {
        Files.createDirectories(dir);
        List<DropFolder.Finished> done = new ArrayList<>();
        DropFolder folder = new DropFolder(dir, new ArticleImporter(db.dsl(), Clock.systemUTC()), "bench",
                DropFolder.Timing.of(Duration.ofMillis(100), Duration.ZERO), new DropFolder.Listener() {
                    @Override
                    public void finished(DropFolder.Finished f) {
                        done.add(f);
                    }

                    @Override
                    public void waiting(String name, String why) {
                        throw new IllegalStateException("the database went away: " + why);
                    }
                });
        Files.copy(file, dir.resolve("large.ndjson.part"));
        Files.move(dir.resolve("large.ndjson.part"), dir.resolve("large.ndjson"));
        long start = System.nanoTime();
        folder.runOnce();
        long millis = (System.nanoTime() - start) / 1_000_000;
        check(done.size() == 1 && done.get(0).outcome().imported() == ROWS, "drop folder: " + done);
        String label = String.format(Locale.ROOT, "%,d rows through the drop folder (hash, encoding check, quiet end)", ROWS);
        say("%-60s %,8d ms  %,8.0f rows/s", label, millis, ROWS * 1000.0 / Math.max(1, millis));
        return new Cell(label, ROWS, millis, done.get(0).outcome(), 0);
    }

    private static String render(List<Cell> cells, LocalDateTime started, String product, long bytes, Duration total) {
        Cell base = cells.get(0);
        StringBuilder md = new StringBuilder();
        md.append("Run of ").append(started).append(" on ").append(Runtime.getRuntime().availableProcessors())
                .append(" cores (shared), server ").append(product).append(" (embedded, same machine), Java ")
                .append(System.getProperty("java.version")).append(", heap limit ")
                .append(Runtime.getRuntime().maxMemory() >> 20).append(" MB. File: ")
                .append(String.format(Locale.ROOT, "%,d rows, %,d MB of JSON lines", ROWS, bytes >> 20))
                .append(". Whole run ").append(total.toMinutes()).append(" min ").append(total.toSecondsPart()).append(" s.\n\n");
        md.append("| cell | time | rows/s | ratio to the baseline's rows/s | peak heap used (sampled at each batch) |\n");
        md.append("|---|---|---|---|---|\n");
        for (Cell c : cells) {
            md.append(String.format(Locale.ROOT, "| %s | %,.1f s | %,.0f | %.2f | %s |%n", c.label(), c.millis() / 1000.0,
                    c.rowsPerSecond(), c.rowsPerSecond() / base.rowsPerSecond(), c.peakHeapMb() == 0 ? "-" : c.peakHeapMb() + " MB"));
        }
        md.append("\nReproduce: `mvn -q test-compile exec:exec@large-import-benchmark` (`-Dbench.args=\"-Dbench.rows=20000\"`"
                + " for a shorter run).\n\n");
        return md.toString();
    }

    private static long heapUsedMb() {
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() >> 20;
    }

    private static void check(boolean ok, String what) {
        if (!ok) {
            throw new IllegalStateException("the benchmark's import did not do what it should: " + what);
        }
    }

    private static void say(String format, Object... args) {
        System.out.println(String.format(Locale.ROOT, format, args));
    }
}
