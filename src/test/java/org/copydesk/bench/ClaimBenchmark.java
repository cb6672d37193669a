package org.copydesk.bench;

import static org.copydesk.db.schema.Tables.ARTICLE;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.copydesk.db.DataSources;
import org.copydesk.db.Database;
import org.copydesk.db.EmbeddedServer;
import org.copydesk.db.schema.enums.ArticleStatus;
import org.copydesk.lease.ClaimRequest;
import org.copydesk.lease.ClaimResult;
import org.copydesk.lease.ClaimStrategyKind;
import org.copydesk.lease.Lease;
import org.copydesk.lease.LeaseEngine;
import org.copydesk.lease.LeaseMetrics;
import org.copydesk.lease.Owner;
import org.copydesk.lease.ServerClock;
import org.copydesk.review.ArticleLeases;
import org.jooq.DSLContext;
import org.jooq.Field;

/**
 * Claim throughput and latency of the three strategies on the embedded MariaDB with 200,000 waiting
 * articles, plus the release service sweeping 100,000 lapsed leases while editors keep claiming.
 * Not a test: it measures, prints a table and rewrites the generated part of docs/benchmarks.md.
 *
 * <p>Run: {@code mvn -q test-compile exec:exec@claim-benchmark} (about 12 minutes on 2 cores).
 * System properties: {@code bench.seconds} measured seconds per cell (10), {@code bench.warmup} (2),
 * {@code bench.only} a comma-separated list of cell labels to run alone (for experiments; no report
 * is written then), {@code bench.sweeps} release-service set-ups to compare: batch size, "/paced" for a
 * service that rests as long as each batch took (100,100/paced,1000/paced).
 *
 * <p>Each owner does what an editor's client does, as fast as it can: claim 5, complete them, repeat.
 * Every cell starts from the same table (the rows earlier cells touched are put back) and an empty
 * event log, with a pool of one connection per owner.
 */
public final class ClaimBenchmark {

    static final int ROWS = 200_000;
    static final int EXPIRED = 100_000;
    static final int BATCH = 5;
    static final Duration TTL = Duration.ofMinutes(5);
    static final Duration SLICE = Duration.ofSeconds(2);
    /** The release service set-up docs/benchmarks.md recommends (why: see there). */
    static final String RECOMMENDED_SWEEP = "100/paced";

    record Cell(String label, ClaimStrategyKind strategy, String isolation, int owners) {
    }

    record Result(Cell cell, long rows, double seconds, long claims, long p50Micros, long p99Micros, long retries,
                  long deadlocks, long lockWaits, long callerErrors, long optimisticConflicts) {
        double rowsPerSecond() {
            return rows / seconds;
        }

        double retryShare() {
            return claims == 0 ? 0 : (double) retries / claims;
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
                say("dataset of %,d rows built in %.1f s", ROWS, (System.nanoTime() - t0) / 1e9);
                if (Boolean.getBoolean("bench.debug")) {
                    // Every deadlock into the server log (target/bench-db/server/server.log), for diagnosis.
                    admin.dsl().execute("set global innodb_print_all_deadlocks = on");
                }

                List<Cell> cells = new ArrayList<>();
                for (ClaimStrategyKind kind : ClaimStrategyKind.values()) {
                    for (int owners : List.of(1, 8, 32, 64)) {
                        cells.add(new Cell(kind + "/RC/" + owners, kind, "READ_COMMITTED", owners));
                    }
                }
                // The isolation lever, for the two locking strategies.
                for (ClaimStrategyKind kind : List.of(ClaimStrategyKind.SKIP_LOCKED, ClaimStrategyKind.BLOCKING)) {
                    for (int owners : List.of(8, 32)) {
                        cells.add(new Cell(kind + "/RR/" + owners, kind, "REPEATABLE_READ", owners));
                    }
                }
                // The client's JIT compiles the claim path during the first seconds of load; without this
                // the first cell measured (1 owner) would mostly measure the compiler.
                bench.run(new Cell("jit warm-up", ClaimStrategyKind.SKIP_LOCKED, "READ_COMMITTED", 8));
                List<String> wanted = only.isBlank() ? List.of() : Arrays.stream(only.split(",")).map(String::trim).toList();
                Map<String, Result> results = new LinkedHashMap<>();
                for (Cell cell : cells) {
                    if (!wanted.isEmpty() && !wanted.contains(cell.label())) {
                        continue;
                    }
                    Result r = bench.run(cell);
                    results.put(cell.label(), r);
                    say("%-22s %9.1f rows/s  p50 %7.2f ms  p99 %8.2f ms  claims %7d  retries %5d (deadlocks %d, lock waits %d)"
                                    + "  caller errors %d", cell.label(), r.rowsPerSecond(), r.p50Micros() / 1000.0,
                            r.p99Micros() / 1000.0, r.claims(), r.retries(), r.deadlocks(), r.lockWaits(), r.callerErrors());
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
                String markdown = Report.render(results, sweeps, server, admin, measure, warmup,
                        Duration.ofNanos(System.nanoTime() - started));
                System.out.println();
                System.out.println(markdown);
                if (wanted.isEmpty()) {
                    Report.write(report, markdown);
                    say("wrote %s", report.toAbsolutePath());
                }
            }
        } finally {
            server.close();
        }
    }

    // --- dataset ------------------------------------------------------------------------------

    private static void dropDatabase(EmbeddedServer server, String url) throws Exception {
        // A fresh schema every run, so a changed migration (an index) is what gets measured.
        try (var c = java.sql.DriverManager.getConnection(url, EmbeddedServer.ROOT_USER, new String(server.rootPassword()));
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
        // has triggers (V2__security.sql): the server hands the insert NULL for external_id.
        int chunk = 2000;
        for (int start = 1; start <= ROWS; start += chunk) {
            var insert = dsl.insertInto(ARTICLE, ARTICLE.EXTERNAL_ID, ARTICLE.DESK_ID, ARTICLE.TITLE, ARTICLE.BODY,
                    ARTICLE.PRIORITY, ARTICLE.AVAILABLE_AT);
            for (int seq = start; seq < Math.min(ROWS + 1, start + chunk); seq++) {
                insert = insert.values(org.jooq.impl.DSL.val("bench-" + seq), org.jooq.impl.DSL.val("news"),
                        org.jooq.impl.DSL.val("Article " + seq), org.jooq.impl.DSL.val("Body of the article."),
                        org.jooq.impl.DSL.val(1 + seq % 5),
                        org.copydesk.lease.ServerClock.plus(org.copydesk.lease.ServerClock.now(),
                                java.time.Duration.ofSeconds(seq - ROWS)));
            }
            insert.execute();
        }
        dsl.execute("analyze table article");
    }

    /** Puts back every row earlier cells touched and empties the event log. */
    private void reset() {
        DSLContext dsl = admin.dsl();
        dsl.execute("truncate table lease_event");
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

    private LeaseEngine engine(Database db, ClaimStrategyKind kind, String isolation) {
        return new LeaseEngine(db.dsl(), ArticleLeases.TABLE, ArticleLeases.EVENTS,
                LeaseEngine.Options.defaults(db.capabilities().supportsSkipLocked()).withStrategy(kind).withIsolation(isolation));
    }

    static ClaimRequest request(Owner owner) {
        return new ClaimRequest(owner, ARTICLE.STATUS.eq(ArticleStatus.queued).and(ARTICLE.AVAILABLE_AT.le(ServerClock.now())),
                ArticleLeases.ORDER, BATCH, TTL);
    }

    private Result run(Cell cell) {
        reset();
        try (Database db = Database.open(url, EmbeddedServer.ROOT_USER, server.rootPassword(), null,
                new DataSources.PoolSize(cell.owners(), cell.owners()), Database.SchemaAction.NONE, null)) {
            LeaseEngine engine = engine(db, cell.strategy(), cell.isolation());
            Load load = new Load(engine, cell.owners(), "o");
            load.start();
            sleep(warmup.toMillis());
            Snapshot before = Snapshot.of(engine.metrics());
            load.measuring(true);
            long t0 = System.nanoTime();
            sleep(measure.toMillis());
            load.measuring(false);
            double seconds = (System.nanoTime() - t0) / 1e9;
            Snapshot after = Snapshot.of(engine.metrics());
            load.stop();
            long[] lat = load.latencies();
            return new Result(cell, load.rows.get(), seconds, lat.length, percentile(lat, 0.50), percentile(lat, 0.99),
                    after.retries - before.retries, after.deadlocks - before.deadlocks, after.lockWaits - before.lockWaits,
                    load.callerErrors.get(), after.conflicts - before.conflicts);
        }
    }

    // --- the release service under load -------------------------------------------------------

    /** Half the table (every even id, all priorities) held by leases that lapsed a minute ago. */
    private void lapseHalf() {
        reset();
        admin.dsl().update(ARTICLE)
                .set(ARTICLE.LOCKED_BY, org.jooq.impl.DSL.concat(org.jooq.impl.DSL.inline("gone-"),
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
        try (Database db = Database.open(url, EmbeddedServer.ROOT_USER, server.rootPassword(), null, new DataSources.PoolSize(10, 10),
                Database.SchemaAction.NONE, null)) {
            LeaseEngine claims = engine(db, ClaimStrategyKind.SKIP_LOCKED, "READ_COMMITTED");
            LeaseEngine releaser = engine(db, ClaimStrategyKind.SKIP_LOCKED, "READ_COMMITTED");
            Load load = new Load(claims, 8, "s");
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
                    int n = releaser.releaseExpired(batchSize, 1, "release-service").size();
                    long took = System.nanoTime() - t0;
                    sweepNanos.addAndGet(took);
                    inChunk.set(false);
                    if (paced) {
                        // Rest as long as the batch took: the service takes at most half of one
                        // connection's time, and the editors' claims the rest of two busy cores.
                        sleep(Math.max(1, took / 1_000_000));
                    }
                    released.addAndGet(n);
                    if (n < batchSize) {
                        done.set(true);
                    }
                }
            }, "release-service");
            service.start();
            Snapshot before = Snapshot.of(claims.metrics());
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
            Snapshot after = Snapshot.of(claims.metrics());
            load.stop();
            join(service);
            long[] during = load.latencies(Load.DURING);
            long[] without = load.latencies(Load.WITHOUT);
            long leftLapsed = admin.dsl().fetchCount(ARTICLE, ARTICLE.LOCKED_BY.like("gone-%"));
            return new SweepResult(batchSize, paced, released.get(), sweepNanos.get() / 1e9, during.length, percentile(during, 0.50),
                    percentile(during, 0.99), percentile(without, 0.99), percentile(without, 0.50),
                    after.retries - before.retries + releaser.metrics().retries(), load.callerErrors.get(), leftLapsed);
        }
    }

    private static void join(Thread t) {
        try {
            t.join(60_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    // --- load ---------------------------------------------------------------------------------

    /**
     * N owners, each: claim 5, complete them, repeat. Claim latencies and completed rows are counted
     * into the bucket chosen by {@link #measuring} when the claim returns ({@link #NONE}: not counted).
     */
    private static final class Load {
        static final int NONE = -1;
        static final int WITHOUT = 0;
        static final int DURING = 1;

        private final LeaseEngine engine;
        private final List<Thread> threads = new ArrayList<>();
        private final long[][][] samples;
        private final AtomicInteger[][] counts;
        private final AtomicBoolean stop = new AtomicBoolean();
        private volatile int bucket = NONE;
        final AtomicLong rows = new AtomicLong();
        final AtomicLong callerErrors = new AtomicLong();
        private final CountDownLatch ready;

        Load(LeaseEngine engine, int owners, String prefix) {
            this.engine = engine;
            this.samples = new long[owners][2][1 << 16];
            this.counts = new AtomicInteger[owners][2];
            this.ready = new CountDownLatch(owners);
            for (int i = 0; i < owners; i++) {
                counts[i][0] = new AtomicInteger();
                counts[i][1] = new AtomicInteger();
                int me = i;
                Owner owner = Owner.named(prefix + i);
                threads.add(new Thread(() -> loop(owner, me), "bench-" + prefix + i));
            }
        }

        void start() {
            threads.forEach(Thread::start);
            try {
                ready.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        void measuring(boolean on) {
            measuring(on ? WITHOUT : NONE);
        }

        void measuring(int into) {
            bucket = into;
        }

        void stop() {
            stop.set(true);
            threads.forEach(ClaimBenchmark::join);
        }

        long[] latencies() {
            return latencies(WITHOUT);
        }

        long[] latencies(int which) {
            int total = 0;
            for (AtomicInteger[] c : counts) {
                total += c[which].get();
            }
            long[] all = new long[total];
            int at = 0;
            for (int i = 0; i < counts.length; i++) {
                int n = counts[i][which].get();
                System.arraycopy(samples[i][which], 0, all, at, n);
                at += n;
            }
            Arrays.sort(all);
            return all;
        }

        private void loop(Owner owner, int me) {
            ready.countDown();
            Map<Field<?>, Object> approve = Map.of(ARTICLE.STATUS, ArticleStatus.approved, ARTICLE.DECIDED_BY, owner.name(),
                    ARTICLE.DECIDED_AT, ServerClock.now());
            while (!stop.get()) {
                try {
                    long t0 = System.nanoTime();
                    ClaimResult claim = engine.claim(request(owner));
                    long micros = (System.nanoTime() - t0) / 1000;
                    int into = bucket;
                    if (into != NONE) {
                        AtomicInteger count = counts[me][into];
                        if (count.get() < samples[me][into].length) {
                            samples[me][into][count.getAndIncrement()] = micros;
                        }
                    }
                    for (Lease lease : claim.leases()) {
                        if (engine.complete(lease, approve, null).applied() && into != NONE) {
                            rows.incrementAndGet();
                        }
                    }
                } catch (RuntimeException e) {
                    // DatabaseBusyException (retries exhausted) or anything else: an error a user would see.
                    callerErrors.incrementAndGet();
                }
            }
        }
    }

    private record Snapshot(long retries, long deadlocks, long lockWaits, long conflicts) {
        static Snapshot of(LeaseMetrics m) {
            return new Snapshot(m.retries(), m.deadlocks(), m.lockWaitTimeouts(), m.optimisticConflicts());
        }
    }

    static long percentile(long[] sorted, double q) {
        if (sorted.length == 0) {
            return 0;
        }
        int index = (int) Math.ceil(q * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
    }

    private static void sleep(long millis) {
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
