package org.copydesk.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.copydesk.db.DataSources;
import org.copydesk.db.Database;
import org.copydesk.db.EmbeddedServer;
import org.copydesk.review.Newsroom;
import org.copydesk.testing.Fixtures;

/**
 * A newsroom of K signed-in desktop clients on one embedded server, {@value #WORKING_DEFAULT} of
 * them working (Get articles, approve each, again) and the rest idle, at K = 100, 300 and 1,000 in
 * one run ({@code -Dbench.clients=100,300,1000}), in this JVM ({@link ClientNewsroom}). Each client is a
 * {@link DesktopClient} on its own account: the desktop pool, the list watch, presence and the release service as the app runs them.
 * Idle clients are away from the window by default (the app's state after ten minutes without a key
 * or the mouse: the list watch every 30 s, no presence); {@code -Dbench.idleAtWindow=true} keeps
 * them at the window (every 3 s for a minute, then every 15 s, as {@link DesktopClient} runs the app's
 * schedule; {@code -Dbench.watchAsBefore=true}: every 3 s throughout); {@code -Dbench.idleHolding=true}
 * has each idle client get a full hand at sign-in and hold it, reading (the list every 3 s, the
 * leases renewed every 60 s). Not a test: a main on the test class path
 * ({@code mvn -q test-compile exec:exec@idle-client-benchmark}) that prints a table and rewrites its
 * section of docs/benchmarks.md.
 *
 * <p>Cells, in order, on one server: the working clients signed in and not working (the base the
 * idle clients' cost is measured over), the working clients working alone (the claim p99's
 * baseline), then for each K: K minus the working clients idle clients signed in (more are added to
 * those already signed in), measured with the working clients not working (idle server CPU per idle
 * client per second: the cell's over the base, divided by the idle clients), and measured with them
 * working (their claim p50 and p99, rows decided per second). At the smallest K, one more cell has
 * the idle clients ask for the sweep turn every 5 s whatever the answer, as before the database
 * paced them (the ratio of the paced cell to it is the pacing's effect, same run). Sign-ins refused
 * are counted.
 */
public final class IdleClientBenchmark {

    static final int WORKING_DEFAULT = 50;
    static final int WORKING = Integer.getInteger("bench.working", WORKING_DEFAULT);
    static final List<Integer> CLIENTS = Arrays.stream(System.getProperty("bench.clients", "100,300,1000").split(","))
            .map(String::trim).map(Integer::valueOf).sorted().toList();
    /**
     * Where the idle clients are: away by default, at the window holding nothing with
     * {@code -Dbench.idleAtWindow=true}, at the window holding a full hand with {@code -Dbench.idleHolding=true}.
     */
    static final DesktopClient.Window IDLE = Boolean.getBoolean("bench.idleHolding") ? DesktopClient.Window.HOLDING
            : Boolean.getBoolean("bench.idleAtWindow") ? DesktopClient.Window.AT_WINDOW : DesktopClient.Window.AWAY;
    /**
     * {@code -Dbench.idleExperiments=leaveOut}: cells that leave out one thing an idle client sends at
     * a time ({@link #experiments}); {@code settle}: the smallest K's idle cell also measured right
     * after the working cell without waiting for the server to settle ({@link #settle}, as before),
     * and once more after it; both, comma-separated.
     */
    static final List<String> EXPERIMENTS = List.of(System.getProperty("bench.idleExperiments", "").split(","));
    /** Histories and dirty pages below this count as settled ({@link #settle}). */
    static final long SETTLED_BELOW = 200;
    /** A cell measured without waiting for the server to settle first. */
    static final String UNSETTLED = "right after the working cell (not settled)";
    static final int ARTICLES = Integer.getInteger("bench.articles", 150_000);
    static final String DESK = "news";

    /** What one cell measured. */
    record Cell(String label, int idle, double seconds, Map<String, Long> counters, double cpuSeconds, long idleConnections,
                long[] claims, long rows, long emptyClaims, long errors, long serverMemoryMb) {

        double cpuMsPerSecond() {
            return cpuSeconds * 1000 / seconds;
        }

        long claimPercentileMs(double q) {
            return claims.length == 0 ? 0 : ClaimBenchmark.percentile(claims, q) / 1_000_000;
        }
    }

    private final Duration idleMeasure = Duration.ofSeconds(Long.getLong("bench.seconds", 60));
    private final Duration idleWarmup = Duration.ofSeconds(Long.getLong("bench.warmup", 40));
    private final Duration workMeasure = Duration.ofSeconds(Long.getLong("bench.workSeconds", 30));
    private final Duration workWarmup = Duration.ofSeconds(Long.getLong("bench.workWarmup", 10));
    private final Duration experimentWarmup = Duration.ofSeconds(Long.getLong("bench.experimentWarmup", 20));
    private char[] rootPassword;
    private ClientNewsroom clients;
    private String url;
    private Database admin;

    public static void main(String[] args) throws Exception {
        Path work = Path.of(System.getProperty("bench.workdir", "target/bench-idle-db"));
        Path report = Path.of(System.getProperty("bench.report", "docs/benchmarks.md"));
        deleteTree(work); // editors' accounts live on the server: a fresh one each run
        EmbeddedServer server = ListWatchBenchmark.startServer(work);
        IdleClientBenchmark bench = new IdleClientBenchmark();
        try {
            bench.url = server.jdbcUrl("bench_idle");
            bench.rootPassword = server.rootPassword();
            bench.admin = Database.open(bench.url, EmbeddedServer.ROOT_USER, server.rootPassword(), null,
                    new DataSources.PoolSize(2, 1), Database.SchemaAction.MIGRATE, null);
            bench.clients = new ClientNewsroom(bench.url, List.of(DESK));
            List<Cell> cells = bench.run();
            String md = IdleClientReport.render(cells, bench);
            System.out.println(md);
            if (!Boolean.getBoolean("bench.noReport")) {
                GeneratedBlock.write(report, "idle-client-benchmark", "IdleClientBenchmark", md);
                ClaimBenchmark.say("wrote %s", report);
            }
        } finally {
            bench.close();
            server.close();
        }
    }

    private List<Cell> run() throws Exception {
        int most = CLIENTS.get(CLIENTS.size() - 1);
        long t0 = System.nanoTime();
        newsroom(most - WORKING);
        ClaimBenchmark.say("newsroom of %d editors with accounts and %,d articles in %.0f s", most, ARTICLES,
                (System.nanoTime() - t0) / 1e9);
        for (int i = 0; i < WORKING; i++) {
            clients.signInWorking("work-" + i);
        }
        List<Cell> cells = new ArrayList<>();
        cells.add(measure(WORKING + " working clients signed in, not working", false));
        cells.add(measure(WORKING + " working clients working, no idle clients", true));
        for (int k : CLIENTS) {
            long s0 = System.nanoTime();
            for (int i = clients.idleCount(); i < k - WORKING; i++) {
                clients.signInIdle("idle-" + i, IDLE);
            }
            ClaimBenchmark.say("%d idle clients signed in (%.0f s for the new ones), %d refused", clients.idleCount(),
                    (System.nanoTime() - s0) / 1e9, clients.refusals().size());
            int idle = clients.idleCount();
            if (k == CLIENTS.get(0) && EXPERIMENTS.contains("settle")) {
                cells.add(measure("K = " + k + ": " + idle + " idle, working clients not working, " + UNSETTLED, false));
            }
            cells.add(measure("K = " + k + ": " + idle + " idle, working clients not working", false));
            if (k == CLIENTS.get(0) && EXPERIMENTS.contains("settle")) {
                cells.add(measure("K = " + k + ": " + idle + " idle, working clients not working, again", false));
            }
            if (k == CLIENTS.get(0) && !Boolean.getBoolean("bench.noUnpacedCell")) {
                clients.pacedRelease(false);
                cells.add(measure("K = " + k + ": " + idle + " idle with the sweep turn asked every 5 s (before), not working",
                        false));
                clients.pacedRelease(true);
            }
            if (k == CLIENTS.get(0) && EXPERIMENTS.contains("leaveOut")) {
                experiments(cells, k, idle);
            }
            cells.add(measure("K = " + k + ": " + idle + " idle, " + WORKING + " working", true));
        }
        if (EXPERIMENTS.contains("leaveOut")) {
            clients.signOutIdle();
            clients.workingSendOnly(EnumSet.noneOf(DesktopClient.Activity.class));
            cells.add(measure("experiment: idle clients signed out, " + WORKING + " working clients sending nothing", false));
            ClaimBenchmark.say("%s", scanCost(most));
        }
        return cells;
    }

    /**
     * At the smallest K ({@code -Dbench.idleExperiments=true}): the idle clients with one thing left
     * out at a time (presence, the sweep turn, the list watch), then sending nothing, then everyone
     * (the working clients too) sending nothing, then as the app again; each cell over the same base.
     */
    private void experiments(List<Cell> cells, int k, int idle) throws Exception {
        var all = EnumSet.allOf(DesktopClient.Activity.class);
        String at = "K = " + k + ": " + idle + " idle, ";
        for (DesktopClient.Activity left : all) {
            var some = EnumSet.copyOf(all);
            some.remove(left);
            clients.idleSendOnly(some);
            cells.add(measure(at + "experiment: without " + left, false));
        }
        clients.idleSendOnly(EnumSet.noneOf(DesktopClient.Activity.class));
        cells.add(measure(at + "experiment: idle clients sending nothing", false));
        clients.workingSendOnly(EnumSet.noneOf(DesktopClient.Activity.class));
        cells.add(measure(at + "experiment: nobody sending anything", false));
        ClaimBenchmark.say("%s", scanCost(k));
        clients.workingSendOnly(all);
        clients.idleSendOnly(all);
        cells.add(measure(at + "experiment: as the app again", false));
    }

    /**
     * The server's CPU per call of {@code end_stuck_sessions} (the newsroom's process-list scan),
     * called back to back by one idle editor's account, with the connections open now and with more
     * (plain root connections, idle) up to 300 and 1,000 in all.
     */
    private String scanCost(int k) throws Exception {
        StringBuilder out = new StringBuilder("process-list scan (end_stuck_sessions) back to back:");
        List<java.sql.Connection> extra = new ArrayList<>();
        String id = "idle-0";
        try (java.sql.Connection editor = java.sql.DriverManager.getConnection(url, id, new String(ClientNewsroom.password(id)))) {
            for (int connections : List.of(0, 300, 1000)) {
                while (connections > 0 && open() < connections) {
                    extra.add(java.sql.DriverManager.getConnection(url, EmbeddedServer.ROOT_USER, new String(rootPassword)));
                }
                int calls = 300;
                long cpu0 = ServerCounters.read(admin.dsl()).get("cpu_server_us");
                long t0 = System.nanoTime();
                try (var call = editor.prepareCall("{call end_stuck_sessions()}")) {
                    for (int i = 0; i < calls; i++) {
                        call.execute();
                        while (call.getMoreResults() || call.getUpdateCount() != -1) {
                            // drain every result
                        }
                    }
                }
                double wall = (System.nanoTime() - t0) / 1e6 / calls;
                long cpu1 = ServerCounters.read(admin.dsl()).get("cpu_server_us");
                out.append(String.format(java.util.Locale.ROOT, " %d connections: %.0f us server CPU a call (%.2f ms wall);", open(),
                        (cpu1 - cpu0) / (double) calls, wall));
            }
        } finally {
            for (java.sql.Connection c : extra) {
                c.close();
            }
        }
        return out.toString();
    }

    private long open() {
        return admin.dsl().fetchOne("select count(*) from information_schema.processlist").get(0, Long.class);
    }

    private void newsroom(int idleEditors) {
        new Newsroom(admin.dsl()).addDesk(DESK, "News", Duration.ofHours(2));
        List<String> ids = Stream.concat(Stream.iterate(0, i -> i + 1).limit(WORKING).map(i -> "work-" + i),
                Stream.iterate(0, i -> i + 1).limit(idleEditors).map(i -> "idle-" + i)).toList();
        ClientNewsroom.addEditors(admin.dsl(), DESK, ids);
        Fixtures.articles(admin.dsl(), DESK, ARTICLES, 3, -3600);
        admin.dsl().execute("analyze table article");
    }

    /**
     * Waits until the server has done the background work earlier cells left (InnoDB purging old row
     * versions and writing changed pages back after the working clients' decisions or the articles'
     * import): its history list below {@value #SETTLED_BELOW} and fewer than {@value #SETTLED_BELOW}
     * pages written back in 2 s, twice in a row, at most {@code bench.settleSeconds} (180). (Changed
     * pages that stay in the buffer pool cost nothing while they wait, so their number is not waited
     * for.) An idle cell measured right after a working one would count that work as the idle
     * clients' ({@code -Dbench.idleExperiments=settle} measures both).
     */
    private void settle() throws InterruptedException {
        long t0 = System.nanoTime();
        long until = t0 + Duration.ofSeconds(Long.getLong("bench.settleSeconds", 180)).toNanos();
        int quiet = 0;
        Map<String, Long> now = ServerCounters.read(admin.dsl());
        while (quiet < 2 && System.nanoTime() < until) {
            Thread.sleep(2_000);
            Map<String, Long> before = now;
            now = ServerCounters.read(admin.dsl());
            boolean settled = now.getOrDefault("Innodb_history_list_length", 0L) < SETTLED_BELOW
                    && ServerCounters.delta(before, now).get("Innodb_buffer_pool_pages_flushed") < SETTLED_BELOW;
            quiet = settled ? quiet + 1 : 0;
        }
        ClaimBenchmark.say("settled in %.0f s: history list %d, dirty pages %d%s", (System.nanoTime() - t0) / 1e9,
                now.get("Innodb_history_list_length"), now.get("Innodb_buffer_pool_pages_dirty"), quiet < 2 ? " (gave up waiting)" : "");
    }

    private Cell measure(String label, boolean withWork) throws Exception {
        if (!withWork && !label.contains(UNSETTLED)) {
            settle();
        }
        clients.work(withWork);
        Thread.sleep((withWork ? workWarmup : label.contains("experiment") ? experimentWarmup : idleWarmup).toMillis());
        long errorsBefore = clients.errors();
        Map<String, Long> before = ServerCounters.read(admin.dsl());
        long t0 = System.nanoTime();
        clients.startMeasuring();
        Thread.sleep((withWork ? workMeasure : idleMeasure).toMillis());
        ClientNewsroom.Figures figures = clients.stopMeasuring();
        double seconds = (System.nanoTime() - t0) / 1e9;
        Map<String, Long> after = ServerCounters.read(admin.dsl());
        clients.work(false);
        long idleConnections = admin.dsl().fetchOne("select count(*) from information_schema.processlist where user like 'idle-%'")
                .get(0, Long.class);
        Cell cell = new Cell(label, clients.idleCount(), seconds, ServerCounters.delta(before, after),
                (after.get("cpu_server_us") - before.get("cpu_server_us")) / 1e6, idleConnections, figures.claims(), figures.rows(),
                figures.emptyClaims(), clients.errors() - errorsBefore, serverMemoryMb());
        ClaimBenchmark.say("%-55s server CPU %7.1f ms/s  idle connections %4d  claims %5d p50 %4d ms p99 %5d ms  rows/s %6.1f"
                        + "  memory %d MB  errors %d  pages flushed %d  history list %d -> %d  dirty pages %d -> %d", label,
                cell.cpuMsPerSecond(), idleConnections, cell.claims().length,
                cell.claimPercentileMs(0.50), cell.claimPercentileMs(0.99), cell.rows() / seconds, cell.serverMemoryMb(),
                cell.errors(), cell.counters().get("Innodb_buffer_pool_pages_flushed"), before.get("Innodb_history_list_length"),
                after.get("Innodb_history_list_length"), before.get("Innodb_buffer_pool_pages_dirty"),
                after.get("Innodb_buffer_pool_pages_dirty"));
        return cell;
    }

    /** The embedded server's resident memory (Linux), 0 when it cannot be read. */
    private static long serverMemoryMb() {
        return ProcessHandle.current().descendants()
                .filter(p -> p.info().command().map(c -> c.endsWith("mariadbd") || c.endsWith("mysqld")).orElse(false))
                .findFirst().map(p -> {
                    try {
                        return Files.readAllLines(Path.of("/proc", Long.toString(p.pid()), "status")).stream()
                                .filter(l -> l.startsWith("VmRSS:")).findFirst()
                                .map(l -> Long.parseLong(l.replaceAll("[^0-9]", "")) / 1024).orElse(0L);
                    } catch (IOException e) {
                        return 0L;
                    }
                }).orElse(0L);
    }

    int working() {
        return WORKING;
    }

    List<String> refusals() {
        return clients.refusals();
    }

    long errors() {
        return clients.errors();
    }

    Duration[] durations() {
        return new Duration[] {idleWarmup, idleMeasure, workWarmup, workMeasure};
    }

    private void close() {
        if (clients != null) {
            clients.close();
        }
        if (admin != null) {
            admin.close();
        }
    }

    static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
