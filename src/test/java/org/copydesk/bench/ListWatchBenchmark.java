package org.copydesk.bench;

import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.EDITOR;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.copydesk.db.DataSources;
import org.copydesk.db.Database;
import org.copydesk.db.EmbeddedServer;
import org.copydesk.review.HeldArticle;
import org.copydesk.review.ReleaseService;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.Role;
import org.copydesk.ui.editor.EditorViewModel;

/**
 * The editors' list watch benchmark: what 200 idle editor windows cost the database all day, today and
 * with the list watch that keeps each editor's list true within 5 s. Not a test: a main on the
 * test class path ({@code mvn -q test-compile exec:exec@list-watch-benchmark}) that prints a table
 * and rewrites its section of docs/benchmarks.md.
 *
 * <p>Each of the 200 clients does, on its own schedule (random phase), what an idle window does:
 * <ul>
 *   <li><b>today</b>: the heartbeat every 60 s ({@code renew_leases} of its 3 leases, then the
 *       look for articles given to it: its held leases and their articles) and the in-client release
 *       service every 5 s ({@code end_stuck_sessions}, {@code abandoned_xa_transactions}, {@code release_expired_leases});</li>
 *   <li><b>with the list watch</b>: the same heartbeat without the look for given articles, the same
 *       release service, and {@link org.copydesk.review.ListWatch#read} every 3 s;</li>
 *   <li><b>the list watch alone</b>, with work waiting on the editor's desks (the read walks up to
 *       {@code ListWatch.WAITING_LIMIT} waiting rows) and at capacity (only the editor's own leases are read).</li>
 * </ul>
 * The clients share one pool of the administrator's account ({@code bench.connections}, 16),
 * naming the editor as the app's command line does; the database's work per call is the same as
 * from an editor's own account. Measured per cell ({@code bench.seconds}, 60, after 5 s of warm-up):
 * the server's statements per second ({@code Questions}: sent by clients; {@code Queries}: also those
 * run inside the operations), and the server process's CPU time from {@code /proc} (Linux only).
 */
public final class ListWatchBenchmark {

    static final int CLIENTS = Integer.getInteger("bench.clients", 200);
    static final int HELD = 3;
    static final int CAPACITY = 5;
    static final List<String> DESKS = List.of("news", "sport", "culture", "business", "local");
    static final int WAITING = 2_400;

    private record Cell(String label, boolean heartbeat, boolean heartbeatLooksForGiven, boolean releaseService,
                        boolean watch, boolean watchWaiting) {
    }

    private record Result(Cell cell, double seconds, Map<String, Long> counters, double serverCpuSeconds, long watchReads,
                          long p50Micros, long p99Micros, long errors) {
        double perSecond(String counter) {
            return counters.getOrDefault(counter, 0L) / seconds;
        }

        double cpuPercent() {
            return 100 * serverCpuSeconds / seconds;
        }
    }

    public static void main(String[] args) throws Exception {
        Path work = Path.of(System.getProperty("bench.workdir", "target/bench-watch-db"));
        Path report = Path.of(System.getProperty("bench.report", "docs/benchmarks.md"));
        Duration measure = Duration.ofSeconds(Long.getLong("bench.seconds", 60));
        Duration warmup = Duration.ofSeconds(Long.getLong("bench.warmup", 5));
        int connections = Integer.getInteger("bench.connections", 16);
        EmbeddedServer server = startServer(work);
        try {
            String url = server.jdbcUrl("bench_watch");
            try (Database admin = Database.open(url, EmbeddedServer.ROOT_USER, server.rootPassword(), null,
                    new DataSources.PoolSize(connections, connections), Database.SchemaAction.MIGRATE, null)) {
                ReviewSession session = new ReviewSession(admin, ReviewSession.Options.defaults());
                List<Client> clients = newsroom(admin, session);
                List<Cell> cells = List.of(
                        new Cell("today: heartbeat 60 s + release service 5 s", true, true, true, false, false),
                        new Cell("with the list watch: heartbeat 60 s + release service 5 s + list watch 3 s", true, false,
                                true, true, true),
                        new Cell("list watch 3 s alone, work waiting on the desks", false, false, false, true, true),
                        new Cell("list watch 3 s alone, editors at capacity", false, false, false, true, false));
                List<Result> results = new ArrayList<>();
                for (Cell cell : cells) {
                    Result r = run(cell, clients, session, admin, server, measure, warmup);
                    results.add(r);
                    say("%-80s %8.1f questions/s %8.1f queries/s  server CPU %5.1f %%  watch p50 %d µs p99 %d µs  errors %d",
                            cell.label(), r.perSecond("Questions"), r.perSecond("Queries"), r.cpuPercent(), r.p50Micros(),
                            r.p99Micros(), r.errors());
                }
                if (!Boolean.getBoolean("bench.noReport")) {
                    GeneratedBlock.write(report, "list-watch-benchmark", "ListWatchBenchmark",
                            render(results, measure, connections));
                    say("wrote %s", report);
                }
            }
        } finally {
            server.close();
        }
    }

    /** The bench's own embedded server, in {@code work}; the caller closes it. */
    static EmbeddedServer startServer(Path work) throws java.io.IOException {
        Files.createDirectories(Path.of(System.getProperty("java.io.tmpdir")));
        return EmbeddedServer.startOrAttach(new EmbeddedServer.Options(work.resolve("server"), "127.0.0.1", 0,
                EmbeddedServer.Mode.DESKTOP, Duration.ofSeconds(90)));
    }

    /** 200 editors on two desks each, holding 3 of 5; about 2,400 articles waiting. */
    private static List<Client> newsroom(Database admin, ReviewSession session) {
        var dsl = admin.dsl();
        dsl.execute("delete from review_draft");
        dsl.execute("delete from decision");
        dsl.execute("delete from lease_event");
        dsl.execute("delete from article");
        dsl.execute("delete from editor_desk");
        dsl.execute("delete from editor");
        for (String desk : DESKS) {
            if (session.newsroom().desk(desk).isEmpty()) {
                session.newsroom().addDesk(desk, desk.substring(0, 1).toUpperCase(Locale.ROOT) + desk.substring(1),
                        Duration.ofHours(2));
            }
        }
        for (int chunk = 0; chunk < (WAITING + CLIENTS * HELD) / 500 + 1; chunk++) {
            var insert = dsl.insertInto(ARTICLE, ARTICLE.EXTERNAL_ID, ARTICLE.DESK_ID, ARTICLE.TITLE, ARTICLE.BODY);
            for (int i = 0; i < 500; i++) {
                int n = chunk * 500 + i;
                insert = insert.values("watch-" + n, DESKS.get(n % DESKS.size()), "Article " + n, "Body " + n);
            }
            insert.execute();
        }
        List<Client> clients = new ArrayList<>();
        for (int i = 0; i < CLIENTS; i++) {
            String id = "watch-ed" + i;
            List<String> desks = List.of(DESKS.get(i % DESKS.size()), DESKS.get((i + 1) % DESKS.size()));
            session.newsroom().addEditor(id, "Editor " + i, Role.EDITOR, HELD, desks);
            List<HeldArticle> held = session.queue().claim(id, desks, null).articles();
            clients.add(new Client(id, desks, held));
        }
        dsl.update(EDITOR).set(EDITOR.CAPACITY, CAPACITY).execute(); // room for more: the watch looks for waiting work
        dsl.execute("analyze table article");
        waitingArticles = dsl.fetchCount(ARTICLE, ARTICLE.LOCKED_BY.isNull());
        say("%d editors holding %d each; %d articles waiting", CLIENTS, HELD, waitingArticles);
        return clients;
    }

    private static final class Client {
        final String id;
        final List<String> desks;
        volatile List<HeldArticle> held;

        Client(String id, List<String> desks, List<HeldArticle> held) {
            this.id = id;
            this.desks = desks;
            this.held = held;
        }
    }

    private static Result run(Cell cell, List<Client> clients, ReviewSession session, Database admin, EmbeddedServer server,
                              Duration measure, Duration warmup) throws InterruptedException {
        ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(16, r -> {
            Thread t = new Thread(r, "bench-client");
            t.setDaemon(true); // a failed run ends the JVM
            return t;
        });
        Random random = new Random(17);
        ConcurrentLinkedQueue<Long> watchMicros = new ConcurrentLinkedQueue<>();
        AtomicLong errors = new AtomicLong();
        AtomicLong measuring = new AtomicLong();
        ReleaseService release = session.releaseService(released -> { });
        for (Client c : clients) {
            long heartbeatMs = Duration.ofSeconds(60).toMillis();
            if (cell.heartbeat()) {
                scheduler.scheduleAtFixedRate(() -> guarded(errors, () -> {
                    var renewal = session.queue().renew(c.id, c.held);
                    c.held = renewal.renewed();
                    if (cell.heartbeatLooksForGiven()) {
                        session.queue().held(c.id); // today's look for articles given to the editor
                    }
                }), random.nextLong(heartbeatMs), heartbeatMs, TimeUnit.MILLISECONDS);
            }
            if (cell.releaseService()) {
                long sweepMs = Duration.ofSeconds(5).toMillis();
                scheduler.scheduleAtFixedRate(() -> guarded(errors, release::runOnce), random.nextLong(sweepMs), sweepMs,
                        TimeUnit.MILLISECONDS);
            }
            if (cell.watch()) {
                long watchMs = EditorViewModel.Settings.WATCH_INTERVAL.toMillis();
                List<String> desks = cell.watchWaiting() ? c.desks : List.of();
                scheduler.scheduleAtFixedRate(() -> guarded(errors, () -> {
                    long t0 = System.nanoTime();
                    session.listWatch().read(c.id, desks);
                    if (measuring.get() == 1) {
                        watchMicros.add((System.nanoTime() - t0) / 1000);
                    }
                }), random.nextLong(watchMs), watchMs, TimeUnit.MILLISECONDS);
            }
        }
        Thread.sleep(warmup.toMillis());
        Map<String, Long> before = ServerCounters.read(admin.dsl());
        double cpuBefore = cpuSeconds(server.serverPid());
        long errorsBefore = errors.get();
        long t0 = System.nanoTime();
        measuring.set(1);
        Thread.sleep(measure.toMillis());
        measuring.set(0);
        double seconds = (System.nanoTime() - t0) / 1e9;
        double cpuAfter = cpuSeconds(server.serverPid());
        Map<String, Long> after = ServerCounters.read(admin.dsl());
        scheduler.shutdownNow();
        scheduler.awaitTermination(30, TimeUnit.SECONDS);
        long[] sorted = watchMicros.stream().mapToLong(Long::longValue).sorted().toArray();
        return new Result(cell, seconds, ServerCounters.delta(before, after), cpuAfter - cpuBefore, sorted.length,
                percentile(sorted, 0.50), percentile(sorted, 0.99), errors.get() - errorsBefore);
    }

    /** Runs one client's call; counts a failure (and prints the first) instead of ending the client's schedule. */
    static void guarded(AtomicLong errors, Runnable work) {
        try {
            work.run();
        } catch (RuntimeException e) {
            if (errors.incrementAndGet() == 1) {
                say("first error: %s", e);
            }
        }
    }

    private static long percentile(long[] sorted, double p) {
        return sorted.length == 0 ? 0 : sorted[(int) Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
    }

    /** The process's user + system CPU time, from /proc (NaN where there is none). */
    static double cpuSeconds(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return (Long.parseLong(f[11]) + Long.parseLong(f[12])) / 100.0; // utime, stime in clock ticks (USER_HZ 100)
        } catch (Exception e) {
            return Double.NaN;
        }
    }

    private static int waitingArticles;

    private static String render(List<Result> results, Duration measure, int connections) {
        Result today = results.get(0);
        StringBuilder md = new StringBuilder();
        md.append("Run of ").append(ClaimBenchmark.now()).append(": ").append(CLIENTS).append(" idle clients, ")
                .append(HELD).append(" leases each (capacity ").append(CAPACITY).append("), ")
                .append(String.format(Locale.ROOT, "%,d", waitingArticles)).append(" articles waiting on 5 desks; ")
                .append(measure.toSeconds()).append(" s per cell after warm-up; one pool of ").append(connections)
                .append(" connections; embedded MariaDB 11.4 on the same 2 shared cores.\n\n");
        md.append("| cell | statements from clients /s (`Questions`) | statements incl. inside operations /s (`Queries`) "
                + "| `SELECT`s /s | `CALL`s /s | server CPU (% of one core) | CPU vs today | list watch p50 / p99 | errors |\n");
        md.append("|---|---|---|---|---|---|---|---|---|\n");
        for (Result r : results) {
            md.append(String.format(Locale.ROOT, "| %s | %.1f | %.1f | %.1f | %.1f | %.1f %% | %.2f× | %s | %d |%n",
                    r.cell().label(), r.perSecond("Questions"), r.perSecond("Queries"), r.perSecond("Com_select"),
                    r.perSecond("Com_call_procedure"), r.cpuPercent(), r.serverCpuSeconds() / today.serverCpuSeconds(),
                    r.watchReads() == 0 ? "\u2014" : r.p50Micros() / 1000.0 + " / " + r.p99Micros() / 1000.0 + " ms",
                    r.errors()));
        }
        return md.toString();
    }

    private static void say(String format, Object... args) {
        System.out.printf(Locale.ROOT, format + "%n", args);
    }
}
