package org.copydesk.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.copydesk.db.DataSources;
import org.copydesk.db.Database;
import org.copydesk.db.EmbeddedServer;
import org.copydesk.review.ReleaseService;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.Role;
import org.copydesk.ui.editor.EditorViewModel;

/**
 * What one signed-in editor's window costs the server while nobody works in it: K clients, each
 * with a pool of its own as the desktop app opens one, doing what an idle window does on its own
 * schedule (random phase): the list watch ({@code ListWatch.read}) and the presence heartbeat every
 * 60 s. Each client starts as a window does, with two reads at once (the held articles and the list
 * watch), so its pool has opened a second connection. Not a test: a main on the test class path
 * ({@code mvn -q test-compile exec:exec@idle-client-benchmark}) that prints a table and rewrites its
 * section of docs/benchmarks.md.
 *
 * <p>The cells, in one run on one server: the pool and list-watch interval as they were (HikariCP's
 * 10-minute idle timeout; the watch every 3 s whether or not anyone is at the window), the desktop
 * pool as it is now ({@link DataSources.PoolSize#desktop()}: extra connections go after 30 s) with the
 * editor at the window (watch every 3 s), and with the editor away, holding nothing (the watch every
 * {@code LiveList.AWAY_INTERVAL}, 30 s); then the same window at the desktop pool with the release
 * service running every 5 s as every client runs it, as it was (each client sweeps: stuck sessions
 * from the server's process list, the XA listing, lapsed leases) and as it is (each client asks for
 * the newsroom's sweep turn, {@code take_sweep_turn}, and one per interval sweeps). Per client:
 * statements sent per minute ({@code Questions}), pings per minute ({@code Com_admin_commands}: the
 * pool checks a connection that sat unused for more than half a second before lending it),
 * connections held at the window's end, and the server's CPU per
 * client per second.
 */
public final class IdleClientBenchmark {

    static final int CLIENTS = Integer.getInteger("bench.clients", 100);
    static final String DESK = "news";
    static final Duration PRESENCE = Duration.ofSeconds(60);
    /** The list watch while the editor is away (LiveList.AWAY_INTERVAL, package-private there). */
    static final Duration AWAY = Duration.ofSeconds(30);
    /** The release service's interval in the desktop app (ReviewSession.Options.defaults()). */
    static final Duration SWEEP = ReviewSession.Options.defaults().releaseInterval();

    /** The release service a cell runs in every client: none, the whole sweep each, or the newsroom's turn. */
    private enum Sweep { NONE, EVERY_CLIENT, TURN }

    private record Cell(String label, DataSources.PoolSize pool, Duration watch, Sweep sweep) {
        Cell(String label, DataSources.PoolSize pool, Duration watch) {
            this(label, pool, watch, Sweep.NONE);
        }
    }

    private record Result(Cell cell, double seconds, Map<String, Long> counters, long connections, double serverCpuSeconds,
                          long errors) {
        double perClientPerMinute(String counter) {
            return counters.getOrDefault(counter, 0L) * 60.0 / seconds / CLIENTS;
        }

        double cpuMsPerClientPerSecond() {
            return serverCpuSeconds * 1000 / seconds / CLIENTS;
        }

        double connectionsPerClient() {
            return (double) connections / CLIENTS;
        }
    }

    public static void main(String[] args) throws Exception {
        Path work = Path.of(System.getProperty("bench.workdir", "target/bench-idle-db"));
        Path report = Path.of(System.getProperty("bench.report", "docs/benchmarks.md"));
        Duration measure = Duration.ofSeconds(Long.getLong("bench.seconds", 60));
        Duration warmup = Duration.ofSeconds(Long.getLong("bench.warmup", 70));
        EmbeddedServer server = ListWatchBenchmark.startServer(work);
        try {
            String url = server.jdbcUrl("bench_idle");
            try (Database admin = Database.open(url, EmbeddedServer.ROOT_USER, server.rootPassword(), null,
                    new DataSources.PoolSize(1, 1), Database.SchemaAction.MIGRATE, null)) {
                newsroom(admin);
                List<Cell> cells = List.of(
                        new Cell("before: pool idle timeout 10 min, list watch 3 s", new DataSources.PoolSize(5, 1),
                                EditorViewModel.Settings.WATCH_INTERVAL),
                        new Cell("now, editor at the window: pool idle timeout 30 s, list watch 3 s", DataSources.PoolSize.desktop(),
                                EditorViewModel.Settings.WATCH_INTERVAL),
                        new Cell("now, editor away: pool idle timeout 30 s, list watch 30 s", DataSources.PoolSize.desktop(), AWAY),
                        new Cell("at the window, release sweep in every client every 5 s (before)", DataSources.PoolSize.desktop(),
                                EditorViewModel.Settings.WATCH_INTERVAL, Sweep.EVERY_CLIENT),
                        new Cell("at the window, release sweep by turn every 5 s (now)", DataSources.PoolSize.desktop(),
                                EditorViewModel.Settings.WATCH_INTERVAL, Sweep.TURN));
                List<Result> results = new ArrayList<>();
                for (Cell cell : cells) {
                    Result r = run(cell, url, server, admin, measure, warmup);
                    results.add(r);
                    say("%-70s statements/min %6.2f  pings/min %6.2f  connections %5.2f  server CPU %6.3f ms/s  errors %d",
                            cell.label(), r.perClientPerMinute("Questions"), r.perClientPerMinute("Com_admin_commands"),
                            r.connectionsPerClient(), r.cpuMsPerClientPerSecond(), r.errors());
                }
                if (!Boolean.getBoolean("bench.noReport")) {
                    GeneratedBlock.write(report, "idle-client-benchmark", "IdleClientBenchmark", render(results, measure, warmup));
                    say("wrote %s", report);
                }
            }
        } finally {
            server.close();
        }
    }

    private static void newsroom(Database admin) {
        ReviewSession session = new ReviewSession(admin, ReviewSession.Options.defaults());
        var dsl = admin.dsl();
        dsl.execute("delete from lease_event");
        dsl.execute("delete from article");
        dsl.execute("delete from editor_desk");
        dsl.execute("delete from editor");
        if (session.newsroom().desk(DESK).isEmpty()) {
            session.newsroom().addDesk(DESK, "News", Duration.ofHours(2));
        }
        for (int i = 0; i < CLIENTS; i++) {
            session.newsroom().addEditor(editor(i), "Idle editor " + i, Role.EDITOR, 5, List.of(DESK));
        }
        dsl.execute("analyze table article");
    }

    private static String editor(int i) {
        return "idle-ed" + i;
    }

    private static Result run(Cell cell, String url, EmbeddedServer server, Database admin, Duration measure, Duration warmup)
            throws Exception {
        ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(8, r -> {
            Thread t = new Thread(r, "idle-client");
            t.setDaemon(true);
            return t;
        });
        Random random = new Random(29);
        AtomicLong errors = new AtomicLong();
        List<Database> pools = new ArrayList<>();
        try {
            for (int i = 0; i < CLIENTS; i++) {
                Database pool = Database.open(url, EmbeddedServer.ROOT_USER, server.rootPassword(), null, cell.pool(),
                        Database.SchemaAction.NONE, null);
                pools.add(pool);
                ReviewSession client = new ReviewSession(pool, ReviewSession.Options.defaults());
                String id = editor(i);
                List<String> desks = List.of(DESK);
                // a window opening: what the editor holds and the list watch, at once
                CompletableFuture.allOf(CompletableFuture.runAsync(() -> client.queue().held(id), scheduler),
                        CompletableFuture.runAsync(() -> client.listWatch().read(id, desks), scheduler)).join();
                long watchMs = cell.watch().toMillis();
                scheduler.scheduleAtFixedRate(() -> ListWatchBenchmark.guarded(errors, () -> client.listWatch().read(id, desks)),
                        random.nextLong(watchMs), watchMs, TimeUnit.MILLISECONDS);
                long presenceMs = PRESENCE.toMillis();
                scheduler.scheduleAtFixedRate(() -> ListWatchBenchmark.guarded(errors, () -> client.queue().recordPresence(id)),
                        random.nextLong(presenceMs), presenceMs, TimeUnit.MILLISECONDS);
                if (cell.sweep() != Sweep.NONE) {
                    ReleaseService release = client.releaseService(released -> { });
                    Runnable sweep = cell.sweep() == Sweep.TURN ? release::runTurn : release::runOnce;
                    long sweepMs = SWEEP.toMillis();
                    scheduler.scheduleAtFixedRate(() -> ListWatchBenchmark.guarded(errors, sweep), random.nextLong(sweepMs), sweepMs,
                            TimeUnit.MILLISECONDS);
                }
            }
            Thread.sleep(warmup.toMillis());
            Map<String, Long> before = ServerCounters.read(admin.dsl());
            long errorsBefore = errors.get();
            long t0 = System.nanoTime();
            Thread.sleep(measure.toMillis());
            double seconds = (System.nanoTime() - t0) / 1e9;
            Map<String, Long> after = ServerCounters.read(admin.dsl());
            long connections = admin.dsl().fetchOne("select count(*) from information_schema.processlist where user = ?"
                    + " and id <> connection_id()", EmbeddedServer.ROOT_USER).get(0, Long.class);
            return new Result(cell, seconds, ServerCounters.delta(before, after), connections,
                    (after.get("cpu_server_us") - before.get("cpu_server_us")) / 1e6, errors.get() - errorsBefore);
        } finally {
            scheduler.shutdownNow();
            scheduler.awaitTermination(30, TimeUnit.SECONDS);
            for (Database pool : pools) {
                pool.close();
            }
        }
    }

    private static String render(List<Result> results, Duration measure, Duration warmup) {
        Result before = results.get(0);
        StringBuilder md = new StringBuilder();
        md.append("Run of ").append(ClaimBenchmark.now()).append(": ").append(CLIENTS)
                .append(" idle clients, each with its own pool, on one embedded MariaDB 11.4 (2 shared cores); ")
                .append(measure.toSeconds()).append(" s per cell after ").append(warmup.toSeconds())
                .append(" s of warm-up; the release service left out of the first three cells. Figures per client.\n\n");
        md.append("| cell | statements /min | pings /min | connections held | server CPU ms /s | CPU vs before | errors |\n");
        md.append("|---|---|---|---|---|---|---|\n");
        for (Result r : results) {
            md.append(String.format(Locale.ROOT, "| %s | %.2f | %.2f | %.2f | %.3f | %.2f× | %d |%n", r.cell().label(),
                    r.perClientPerMinute("Questions"), r.perClientPerMinute("Com_admin_commands"), r.connectionsPerClient(),
                    r.cpuMsPerClientPerSecond(), r.serverCpuSeconds() / before.serverCpuSeconds(), r.errors()));
        }
        Result everyClient = results.stream().filter(r -> r.cell().sweep() == Sweep.EVERY_CLIENT).findFirst().orElseThrow();
        Result turn = results.stream().filter(r -> r.cell().sweep() == Sweep.TURN).findFirst().orElseThrow();
        Result atWindow = results.get(1);
        md.append(String.format(Locale.ROOT, "%nThe release sweep by turn against the sweep in every client, same run: server CPU %.2f×,"
                        + " statements %.2f×; the sweep's own share of the server's CPU (over the window without it): %.3f ms/s per"
                        + " client in every client, %.3f ms/s by turn.%n",
                turn.serverCpuSeconds() / everyClient.serverCpuSeconds(),
                turn.perClientPerMinute("Questions") / everyClient.perClientPerMinute("Questions"),
                everyClient.cpuMsPerClientPerSecond() - atWindow.cpuMsPerClientPerSecond(),
                turn.cpuMsPerClientPerSecond() - atWindow.cpuMsPerClientPerSecond()));
        return md.toString();
    }

    private static void say(String format, Object... args) {
        System.out.printf(Locale.ROOT, format + "%n", args);
    }
}
