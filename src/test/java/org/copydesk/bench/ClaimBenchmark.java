package org.copydesk.bench;

import static org.copydesk.db.schema.Tables.ARTICLE;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.time.Duration;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.copydesk.db.DataSources;
import org.copydesk.db.Database;
import org.copydesk.db.EmbeddedServer;
import org.copydesk.db.schema.enums.ArticleStatus;
import org.copydesk.lease.ClaimStrategyKind;
import org.copydesk.lease.ServerClock;
import org.jooq.DSLContext;
import org.jooq.exception.DataAccessException;
import org.jooq.impl.DSL;

/**
 * The claim benchmark on the embedded MariaDB with 200,000 waiting articles: per owner count, a
 * bare baseline ({@link BareClaims}) and the editors' full path through the review services and the
 * database's operations ({@link EditorSessions}, for each claim strategy); the server's own counters
 * around each cell ({@link ServerCounters}); optionally the release service sweeping 100,000 lapsed
 * leases while editors keep claiming. Not a test: it measures, prints tables and rewrites the
 * generated part of docs/benchmarks.md.
 *
 * <p>Run: {@code mvn -q test-compile exec:exec@claim-benchmark} (about 15 minutes on 2 cores with
 * everything). System properties (through {@code -Dbench.args="…"}): {@code bench.seconds} measured
 * seconds per cell (10), {@code bench.warmup} (2), {@code bench.owners} owner counts (1,8,32,64),
 * {@code bench.accounts} OWN
 * (each editor signs in with an account of their own; default) or ADMIN (one administrator pool,
 * {@code p_as}), {@code bench.only} a comma-separated list of cell labels to run alone (for
 * experiments; no report is written then), {@code bench.sweeps} release-service set-ups to compare:
 * batch size, "/paced" for a service that rests as long as each batch took (100,100/paced,1000/paced;
 * empty: none), {@code bench.due} scrambled (a due time on every article, not in arrival order) or arrival
 * (due two hours after arrival) (docs/benchmarks.md, "Due times on every article"), {@code bench.stages}
 * chains to run the full path on besides the desk without stages, e.g. 1,3 ({@link StageCells}).
 * After the cells, {@link RoutineEnvelope} prices what the database's rules add to
 * every operation (its cells without them run with each owner count).
 *
 * <p>Each owner does what an editor's client does, as fast as it can: claim 5, complete them, repeat.
 * Every cell starts from the same table (the rows earlier cells touched are put back) and an empty
 * event log, with a pool of one connection per owner.
 */
public final class ClaimBenchmark {

    static final int ROWS = 200_000;
    static final int EXPIRED = 100_000;
    static final int BATCH = 5;
    /** The bare baseline's lease length. */
    static final Duration TTL = Duration.ofMinutes(5);
    static final Duration SLICE = Duration.ofSeconds(2);
    /** The release service set-up docs/benchmarks.md recommends (why: see there). */
    static final String RECOMMENDED_SWEEP = "100/paced";

    /**
     * What a cell measures: the bare baseline, the bare baseline that also keeps Copydesk's records
     * ({@link BareClaims}), or the editors' full path.
     */
    enum Kind { BARE, BARE_RECORDS, EDITORS }

    record Cell(String label, Kind kind, ClaimStrategyKind strategy, int owners, int stages) {
        /** A cell on the desk without stages. */
        Cell(String label, Kind kind, ClaimStrategyKind strategy, int owners) {
            this(label, kind, strategy, owners, 0);
        }

        static Cell bare(int owners) {
            return new Cell("BARE/" + owners, Kind.BARE, ClaimStrategyKind.SKIP_LOCKED, owners);
        }

        static Cell bareRecords(int owners) {
            return new Cell("BARE+RECORDS/" + owners, Kind.BARE_RECORDS, ClaimStrategyKind.SKIP_LOCKED, owners);
        }

        static Cell editors(ClaimStrategyKind kind, int owners) {
            return new Cell("EDITORS/" + kind + "/" + owners, Kind.EDITORS, kind, owners);
        }
    }

    /**
     * @param lost     completions that found the item lost (a decision refused or lost): not counted as rows
     * @param counters the server's counters over the measured window ({@link ServerCounters})
     * @param shortClaims claims in the window that came back with fewer than {@link #BATCH} articles
     * @param emptyClaims of those, the claims that came back with none
     * @param waiting     the claimable articles at the window's start and end, whichever was fewer: while
     *                    it is more than every owner can hold, a short claim is a wrong one
     */
    record Result(Cell cell, long rows, double seconds, long claims, long p50Micros, long p99Micros, long retries,
                  long deadlocks, long lockWaits, long callerErrors, long lost,
                  Map<String, Long> counters, long shortClaims, long emptyClaims, long waiting) {
        double rowsPerSecond() {
            return rows / seconds;
        }

        double retryShare() {
            return claims == 0 ? 0 : (double) retries / claims;
        }

        /** A server counter's delta per claimed-and-decided row. */
        double perRow(String counter) {
            return rows == 0 ? Double.NaN : (double) counters.getOrDefault(counter, 0L) / rows;
        }
    }

    record SweepResult(int batchSize, boolean paced, long releasedBySweep, double sweepSeconds, long claims, long p50Micros,
                       long p99Micros, long baselineP99Micros, long baselineP50Micros, long retries, long callerErrors,
                       long leftLapsed) {
        double p99Ratio() {
            return (double) p99Micros / baselineP99Micros;
        }
    }

    private final Database admin;
    private final EmbeddedServer server;
    private final String url;
    private final Duration measure;
    private final Duration warmup;
    private EditorSessions editors;

    private ClaimBenchmark(Database admin, EmbeddedServer server, String url, Duration measure, Duration warmup) {
        this.admin = admin;
        this.server = server;
        this.url = url;
        this.measure = measure;
        this.warmup = warmup;
    }

    public static void main(String[] args) throws Exception {
        Path work = Path.of(System.getProperty("bench.workdir", "target/bench-db"));
        Path report = Path.of(System.getProperty("bench.report", "docs/benchmarks.md"));
        Duration measure = Duration.ofSeconds(Long.getLong("bench.seconds", 10));
        Duration warmup = Duration.ofSeconds(Long.getLong("bench.warmup", 2));
        String only = System.getProperty("bench.only", "");
        List<String> sweepConfigs = Arrays.stream(System.getProperty("bench.sweeps", "100,100/paced,1000/paced").split(","))
                .map(String::trim).filter(s -> !s.isEmpty()).toList();
        Files.createDirectories(Path.of(System.getProperty("java.io.tmpdir")));
        long started = System.nanoTime();

        EmbeddedServer server = EmbeddedServer.startOrAttach(new EmbeddedServer.Options(work.resolve("server"), "127.0.0.1",
                0, EmbeddedServer.Mode.DESKTOP, Duration.ofSeconds(90)));
        try {
            String url = server.jdbcUrl("bench");
            dropDatabase(server, url);
            try (Database admin = Database.open(url, EmbeddedServer.ROOT_USER, server.rootPassword(), null, DataSources.PoolSize.of(4),
                    Database.SchemaAction.MIGRATE, null)) {
                ClaimBenchmark bench = new ClaimBenchmark(admin, server, url, measure, warmup);
                long t0 = System.nanoTime();
                bench.buildDataset();
                BareClaims.create(admin.dsl());
                say("dataset of %,d rows (and its bare copy) built in %.1f s", ROWS, (System.nanoTime() - t0) / 1e9);
                if (Boolean.getBoolean("bench.debug")) {
                    // Every deadlock into the server log (target/bench-db/server/server.log), for diagnosis.
                    admin.dsl().execute("set global innodb_print_all_deadlocks = on");
                }

                List<Integer> ownerCounts = Arrays.stream(System.getProperty("bench.owners", "1,8,32,64").split(","))
                        .map(String::trim).filter(x -> !x.isEmpty()).map(Integer::valueOf).toList();
                EditorSessions.Accounts accounts = EditorSessions.Accounts.valueOf(
                        System.getProperty("bench.accounts", "OWN").toUpperCase(Locale.ROOT));
                // Per owner count, the five cells compared, side by side so that they share the same
                // minutes of a shared machine.
                List<Cell> cells = new ArrayList<>();
                for (int owners : ownerCounts) {
                    cells.add(Cell.bare(owners));
                    cells.add(Cell.bareRecords(owners));
                    cells.add(Cell.editors(ClaimStrategyKind.SKIP_LOCKED, owners));
                    for (int stages : StageCells.counts()) {
                        cells.add(StageCells.cell(owners, stages));
                    }
                    cells.add(Cell.editors(ClaimStrategyKind.OPTIMISTIC, owners));
                    cells.add(Cell.editors(ClaimStrategyKind.BLOCKING, owners));
                    cells.add(RoutineEnvelope.withoutCell(owners));
                }
                int maxOwners = ownerCounts.stream().mapToInt(Integer::intValue).max().orElse(1);
                long t1 = System.nanoTime();
                bench.editors = EditorSessions.create(admin, url, server, Math.max(8, maxOwners), accounts);
                say("%d editors (%s accounts) ready in %.1f s", Math.max(8, maxOwners), accounts,
                        (System.nanoTime() - t1) / 1e9);
                // The client's JIT compiles the claim path during the first seconds of load; without this
                // the first cell measured (1 owner) would mostly measure the compiler.
                bench.run(new Cell("jit warm-up", Kind.EDITORS, ClaimStrategyKind.SKIP_LOCKED, 8));
                bench.run(new Cell("jit warm-up", Kind.BARE, ClaimStrategyKind.SKIP_LOCKED, 8));
                List<String> wanted = only.isBlank() ? List.of() : Arrays.stream(only.split(",")).map(String::trim).toList();
                Map<String, Result> results = new LinkedHashMap<>();
                for (Cell cell : cells) {
                    if (!wanted.isEmpty() && !wanted.contains(cell.label())) {
                        continue;
                    }
                    Result r = RoutineEnvelope.isWithout(cell) ? RoutineEnvelope.without(admin.dsl(), () -> bench.run(cell))
                            : bench.run(cell);
                    results.put(cell.label(), r);
                    Result bare = results.get(Cell.bare(cell.owners()).label());
                    say("%-26s %9.1f rows/s (%5.2fx bare)  p50 %7.2f ms  p99 %8.2f ms  claims %6d (short %d, empty %d, %,d"
                                    + " waiting)  retries %5d (deadlocks %d, lock waits %d)  caller errors %d  lost %d  per row:"
                                    + " client stmts %.2f, in routines %.2f,"
                                    + " Com_commit %.2f, Handler_commit %.2f, CPU ms server %.2f client %.2f  [%s]",
                            cell.label(), r.rowsPerSecond(), bare == null ? Double.NaN : r.rowsPerSecond() / bare.rowsPerSecond(),
                            r.p50Micros() / 1000.0, r.p99Micros() / 1000.0, r.claims(), r.shortClaims(), r.emptyClaims(),
                            r.waiting(), r.retries(), r.deadlocks(),
                            r.lockWaits(), r.callerErrors(), r.lost(), r.perRow("Questions"),
                            r.perRow("Queries") - r.perRow("Questions"), r.perRow("Com_commit"), r.perRow("Handler_commit"),
                            r.perRow("cpu_server_us") / 1000, r.perRow("cpu_client_us") / 1000,
                            LocalTime.now(ZoneOffset.UTC).withNano(0));
                }
                List<SweepResult> sweeps = new ArrayList<>();
                if (wanted.isEmpty() || wanted.contains("sweep")) {
                    for (String config : sweepConfigs) {
                        int batch = Integer.parseInt(config.replace("/paced", ""));
                        SweepResult s = bench.sweep(batch, config.endsWith("/paced"));
                        sweeps.add(s);
                        say("sweep batch %5d%s: released %,d in %.1f s; claim p99 %.2f ms during vs %.2f ms without (x%.2f)",
                                batch, s.paced() ? " paced" : "", s.releasedBySweep(), s.sweepSeconds(), s.p99Micros() / 1000.0,
                                s.baselineP99Micros() / 1000.0, s.p99Ratio());
                    }
                }
                Map<Integer, Double> prices = wanted.isEmpty() || wanted.contains("envelope")
                        ? RoutineEnvelope.prices(admin.dsl()) : Map.of();
                String markdown = Report.render(results, sweeps, server, admin, measure, warmup,
                        Duration.ofNanos(System.nanoTime() - started), new Report.Setup(ownerCounts, sweepConfigs,
                                accounts)) + RoutineEnvelope.render(results, ownerCounts, prices) + StageCells.render(results, ownerCounts);
                System.out.println();
                System.out.println(markdown);
                if (wanted.isEmpty()) {
                    Report.write(report, markdown);
                    say("wrote %s", report.toAbsolutePath());
                }
                bench.closeEditors();
            }
        } finally {
            server.close();
        }
    }

    private void closeEditors() {
        if (editors != null) {
            editors.close();
        }
    }

    // --- dataset ------------------------------------------------------------------------------

    private static void dropDatabase(EmbeddedServer server, String url) throws Exception {
        // A fresh schema every run, so a changed migration (an index) is what gets measured.
        try (var c = DriverManager.getConnection(url, EmbeddedServer.ROOT_USER, new String(server.rootPassword()));
             var s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS bench");
        }
    }

    /**
     * 200,000 waiting articles on one desk, priorities 1-5, available over the past days, in one
     * INSERT … SELECT from MariaDB's sequence engine (a few seconds instead of a minute of round trips).
     * Plain SQL because jOOQ has no handle for the {@code seq_1_to_N} tables.
     */
    private void buildDataset() {
        DSLContext dsl = admin.dsl();
        dsl.execute("insert into desk (id, name) values ('news', 'News')");
        // Multi-row VALUES in chunks: INSERT … SELECT into article fails on MariaDB 11.4 once the table
        // has triggers (db/routines/R__article_*_revision.sql): the server hands the insert NULL for external_id.
        int chunk = 2000;
        for (int start = 1; start <= ROWS; start += chunk) {
            var insert = dsl.insertInto(ARTICLE, ARTICLE.EXTERNAL_ID, ARTICLE.DESK_ID, ARTICLE.TITLE, ARTICLE.BODY,
                    ARTICLE.PRIORITY, ARTICLE.AVAILABLE_AT);
            for (int seq = start; seq < Math.min(ROWS + 1, start + chunk); seq++) {
                insert = insert.values(DSL.val("bench-" + seq), DSL.val("news"), DSL.val("Article " + seq),
                        DSL.val("Body of the article."), DSL.val(1 + seq % 5),
                        ServerClock.plus(ServerClock.now(), Duration.ofSeconds(seq - ROWS)));
            }
            insert.execute();
        }
        String due = System.getProperty("bench.due", "none");
        if (due.equals("scrambled") || due.equals("true")) {
            // a due time on every article, spread over the next day and not in arrival order (several
            // share each second): the claim walks ix_article_claim by priority and due time, and takes
            // rows scattered over the table instead of neighbours
            dsl.execute("update article set due_at = timestampadd(second, 3600 + (id * 7919) % 86400, utc_timestamp(3)),"
                    + " due_order = claim_due_order(due_at)");
        } else if (due.equals("arrival")) {
            // due two hours after arrival, as a desk's default makes it: the due order is the arrival order
            dsl.execute("update article set due_at = timestampadd(hour, 2, available_at), due_order = claim_due_order(due_at)");
        }
        dsl.execute("analyze table article");
    }

    /** Puts back every row earlier cells touched and empties the event log, on the desk without stages. */
    private void reset() {
        reset(0);
    }

    /** Puts back every row earlier cells touched, gives the desk {@code stages} stages and empties the event log. */
    private void reset(int stages) {
        DSLContext dsl = admin.dsl();
        emptyEventLog(dsl);
        dsl.execute("delete from review_draft");
        dsl.execute("delete from decision");
        BareClaims.reset(dsl);
        dsl.update(ARTICLE)
                .set(ARTICLE.STATUS, ArticleStatus.queued)
                .setNull(ARTICLE.LOCKED_BY)
                .setNull(ARTICLE.EXPIRES_AT)
                .set(ARTICLE.QUEUE_LANE, 1)
                .set(ARTICLE.LEASE_TOKEN, 0L)
                .setNull(ARTICLE.CLAIMED_AT)
                .set(ARTICLE.RENEWALS, 0)
                .setNull(ARTICLE.DECIDED_BY)
                .setNull(ARTICLE.DECIDED_AT)
                .where(ARTICLE.STATUS.ne(ArticleStatus.queued).or(ARTICLE.LOCKED_BY.isNotNull()).or(ARTICLE.QUEUE_LANE.eq(0)))
                .execute();
        StageCells.chain(dsl, EditorSessions.DESK, stages);
        settle();
    }

    /** Lets InnoDB purge what the reset left behind, so it does not run inside the next measurement. */
    private void settle() {
        long until = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (System.nanoTime() < until) {
            Long history = admin.dsl().fetchOne("select count from information_schema.innodb_metrics "
                    + "where name = 'trx_rseg_history_len'").get(0, Long.class);
            if (history == null || history < 1000) {
                return;
            }
            sleep(200);
        }
    }

    // --- one cell -----------------------------------------------------------------------------

    private Result run(Cell cell) {
        reset(cell.stages());
        return switch (cell.kind()) {
            case BARE, BARE_RECORDS -> runBare(cell);
            case EDITORS -> runEditors(cell);
        };
    }

    private Result runBare(Cell cell) {
        try (Database db = Database.open(url, EmbeddedServer.ROOT_USER, server.rootPassword(), null,
                new DataSources.PoolSize(cell.owners(), cell.owners()), Database.SchemaAction.NONE, null)) {
            List<OwnerLoop<long[]>> owners = new ArrayList<>();
            for (int i = 0; i < cell.owners(); i++) {
                owners.add(cell.kind() == Kind.BARE ? BareClaims.owner(db.dataSource(), "b" + i)
                        : BareClaims.recordingOwner(db.dataSource(), "b" + i));
            }
            BareClaims.openAll(db.dataSource(), cell.owners());
            return measure(cell, new Load(owners, "b"), () -> new long[3]);
        }
    }

    private Result runEditors(Cell cell) {
        EditorSessions.Cell sessions = editors.cell(cell.owners(), cell.strategy());
        long openBefore = EditorSessions.OPEN_AFTER_ERROR.get();
        Result r = measure(cell, new Load(sessions.owners(), "e"), () -> {
            long[] retries = sessions.retries();
            return new long[] {retries[0], retries[1], retries[2]};
        });
        long open = EditorSessions.OPEN_AFTER_ERROR.get() - openBefore;
        if (open > 0) {
            say("%s: %d errors left the editor's session inside a transaction", cell.label(), open);
        }
        return r;
    }

    /**
     * Starts the load, lets it warm up, then measures one window: the owners' counts, the retry
     * counts {@code retries} returns (retries, deadlocks, lock waits) and the
     * server's counters, each as a difference across the window.
     */
    private Result measure(Cell cell, Load load, Supplier<long[]> retries) {
        load.start();
        sleep(warmup.toMillis());
        // the counters are read while every owner waits between two calls (Load.pause): the window's
        // rows and the server's work are then the same calls
        load.pause();
        long waitingBefore = waiting(cell);
        long[] before = retries.get();
        Map<String, Long> countersBefore = ServerCounters.read(admin.dsl());
        load.measuring(true);
        long t0 = System.nanoTime();
        load.resume();
        sleep(measure.toMillis());
        load.pause(); // the calls in flight finish, and count
        double seconds = (System.nanoTime() - t0) / 1e9;
        load.measuring(false);
        Map<String, Long> countersAfter = ServerCounters.read(admin.dsl());
        long[] after = retries.get();
        long waitingAfter = waiting(cell);
        load.stop();
        long[] lat = load.latencies();
        return new Result(cell, load.rows.get(), seconds, lat.length, percentile(lat, 0.50), percentile(lat, 0.99),
                after[0] - before[0], after[1] - before[1], after[2] - before[2], load.callerErrors.get(),
                load.lost.get(), ServerCounters.delta(countersBefore, countersAfter), load.shortClaims.get(),
                load.emptyClaims.get(), Math.min(waitingBefore, waitingAfter));
    }

    /** Articles a claim could take now: waiting, available, not held (read while no owner is in a call). */
    private long waiting(Cell cell) {
        String table = cell.kind() == Kind.EDITORS ? "article" : BareClaims.TABLE;
        return admin.dsl().fetchOne("select count(*) from " + table
                + " where status = 'queued' and locked_by is null and available_at <= now(6)").get(0, Long.class);
    }

    // --- the release service under load -------------------------------------------------------

    /** Half the table (every even id, all priorities) held by leases that lapsed a minute ago. */
    private void lapseHalf() {
        reset();
        admin.dsl().update(ARTICLE)
                .set(ARTICLE.LOCKED_BY, DSL.concat(DSL.inline("gone-"),
                        ARTICLE.ID.mod(50).cast(String.class)))
                .set(ARTICLE.EXPIRES_AT, ServerClock.plus(ServerClock.now(), Duration.ofMinutes(-1)))
                .set(ARTICLE.CLAIMED_AT, ServerClock.plus(ServerClock.now(), Duration.ofMinutes(-6)))
                .set(ARTICLE.LEASE_TOKEN, 1L)
                .set(ARTICLE.QUEUE_LANE, 0)
                .where(ARTICLE.ID.mod(2).eq(0L))
                .execute();
        settle();
    }

    /**
     * 8 owners claim while the release service frees {@code EXPIRED} lapsed leases in batches of
     * {@code batchSize}. The service runs in alternating slices, on for {@code SLICE}, paused for
     * {@code SLICE}, until nothing has lapsed any more; claim latencies are counted apart for the two
     * kinds of slice. Interleaving makes the baseline share the minute with the sweep: on a machine
     * whose other load drifts (ours is shared), two separate runs differed by 2× in p99 alone.
     */
    private SweepResult sweep(int batchSize, boolean paced) {
        lapseHalf();
        // Eight editors on the full path (their own accounts, claim_articles and decide_article)
        // while the release service's operation, release_expired_leases, frees the lapsed leases.
        EditorSessions.Cell claimers = editors.cell(8, ClaimStrategyKind.SKIP_LOCKED);
        long[] retriesBefore = claimers.retries();
        try (Database db = Database.open(url, EmbeddedServer.ROOT_USER, server.rootPassword(), null, new DataSources.PoolSize(1, 1),
                Database.SchemaAction.NONE, null)) {
            Load load = new Load(claimers.owners(), "s");
            load.start();
            sleep(warmup.toMillis());
            AtomicBoolean on = new AtomicBoolean();
            AtomicBoolean inChunk = new AtomicBoolean();
            AtomicBoolean done = new AtomicBoolean();
            AtomicLong released = new AtomicLong();
            AtomicLong sweepNanos = new AtomicLong();
            Thread service = new Thread(() -> {
                while (!done.get()) {
                    if (!on.get()) {
                        sleep(1);
                        continue;
                    }
                    inChunk.set(true);
                    long t0 = System.nanoTime();
                    // The release service as the app runs it: one short transaction per batch.
                    int n = db.dsl().fetch("call release_expired_leases(?)", batchSize).size();
                    long took = System.nanoTime() - t0;
                    sweepNanos.addAndGet(took);
                    inChunk.set(false);
                    if (paced) {
                        // Rest as long as the batch took (as ReleaseService does): the service takes at
                        // most half of one connection's time, and the editors the rest of two busy cores.
                        sleep(Math.max(1, took / 1_000_000));
                    }
                    released.addAndGet(n);
                    if (n < batchSize) {
                        done.set(true);
                    }
                }
            }, "release-service");
            service.start();
            while (!done.get()) {
                load.measuring(Load.DURING);
                on.set(true);
                sleep(SLICE.toMillis());
                on.set(false);
                while (inChunk.get()) {
                    sleep(1);
                }
                load.measuring(Load.WITHOUT);
                sleep(SLICE.toMillis());
            }
            load.measuring(Load.NONE);
            load.stop();
            join(service);
            long[] during = load.latencies(Load.DURING);
            long[] without = load.latencies(Load.WITHOUT);
            long leftLapsed = admin.dsl().fetchCount(ARTICLE, ARTICLE.LOCKED_BY.like("gone-%"));
            return new SweepResult(batchSize, paced, released.get(), sweepNanos.get() / 1e9, during.length, percentile(during, 0.50),
                    percentile(during, 0.99), percentile(without, 0.99), percentile(without, 0.50),
                    claimers.retries()[0] - retriesBefore[0], load.callerErrors.get(), leftLapsed);
        }
    }

    /**
     * TRUNCATE waits for every session with a transaction open on the table. A run once stopped
     * here after a cell (a lock wait, once in many runs): say who held what, then try again.
     */
    private static void emptyEventLog(DSLContext dsl) {
        for (int attempt = 1; ; attempt++) {
            try {
                dsl.execute("truncate table lease_event");
                return;
            } catch (DataAccessException e) {
                if (attempt == 3) {
                    throw e;
                }
                say("emptying lease_event waited too long (%s); open transactions: %s; sessions at work: %s", e.getMessage(),
                        dsl.fetch("select trx_mysql_thread_id, trx_state, trx_started, trx_tables_locked, trx_query "
                                + "from information_schema.innodb_trx").formatCSV(false),
                        dsl.fetch("select id, user, command, time, state, info from information_schema.processlist "
                                + "where command <> 'Sleep' and id <> connection_id()").formatCSV(false));
            }
        }
    }

    static void join(Thread t) {
        try {
            t.join(60_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static long percentile(long[] sorted, double q) {
        if (sorted.length == 0) {
            return 0;
        }
        int index = (int) Math.ceil(q * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static void say(String format, Object... args) {
        System.out.printf(Locale.ROOT, format + "%n", args);
    }

    static String now() {
        return ZonedDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME);
    }
}
