package org.copydesk.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;
import org.copydesk.db.DataSources;
import org.copydesk.db.Database;
import org.copydesk.db.EmbeddedServer;
import org.copydesk.review.HeldArticle;
import org.copydesk.review.Newsroom;
import org.copydesk.review.ReleaseService;
import org.copydesk.review.ReviewSession;
import org.copydesk.testing.Fixtures;
import org.jooq.DSLContext;

/**
 * What one read of a window's list costs the server, by the form of the statement: each form sent
 * back to back on one editor's own connection (the desktop pool, server-side prepared statements),
 * the server's CPU per statement from its process's CPU time. The editor holds a full hand; the
 * reads are those of a window at capacity (no waiting work asked). Not a test: a main on the test
 * class path ({@code mvn -q test-compile exec:exec@list-read-cost}).
 */
public final class ListReadCost {

    private static final int READS = Integer.getInteger("bench.reads", 20_000);
    /**
     * {@code -Dbench.spaced=N}: instead, N editors holding a full hand each send one form every 3 s
     * (the holding window's interval, each at its own phase) for {@code bench.seconds} (60) after 20 s:
     * what a read costs the server when it comes on a connection that sat idle, as the window's do.
     */
    private static final int SPACED = Integer.getInteger("bench.spaced", 0);

    public static void main(String[] args) throws Exception {
        Path work = Path.of(System.getProperty("bench.workdir", "target/bench-list-read"));
        IdleClientBenchmark.deleteTree(work);
        try (EmbeddedServer server = ListWatchBenchmark.startServer(work);
             Database admin = Database.open(server.jdbcUrl("bench_list_read"), EmbeddedServer.ROOT_USER, server.rootPassword(), null,
                     new DataSources.PoolSize(2, 1), Database.SchemaAction.MIGRATE, null)) {
            String desk = "news";
            String id = "reader";
            new Newsroom(admin.dsl()).addDesk(desk, "News", Duration.ofHours(2));
            ClientNewsroom.addEditors(admin.dsl(), desk, List.of(id));
            Fixtures.articles(admin.dsl(), desk, 20_000, 3, -3600);
            admin.dsl().execute("analyze table article");
            if (SPACED > 0) {
                spaced(server, admin, desk);
                return;
            }
            try (Database editor = Database.open(server.jdbcUrl("bench_list_read"), id, ClientNewsroom.password(id), null,
                    DataSources.PoolSize.desktop(), Database.SchemaAction.NONE, null)) {
                ReviewSession session = new ReviewSession(editor, ReviewSession.Options.defaults());
                int held = session.queue().claim(id).articles().size();
                DSLContext dsl = editor.dsl();
                Map<String, Runnable> forms = new LinkedHashMap<>();
                forms.put("SELECT 1", () -> dsl.fetch("select 1"));
                forms.put("the list watch at capacity (held UNION ALL clock)", () -> session.listWatch().read(id, List.of()));
                forms.put("held rows LEFT JOINed to one clock row", () -> dsl.fetch("select now(6), a.id, a.lease_token, a.expires_at,"
                        + " a.desk_id, case when a.revision > a.held_revision then a.revision end, a.due_at"
                        + " from (select 1) c left join article a on a.locked_by = ? and a.expires_at > now(6)", id));
                forms.put("held rows alone", () -> dsl.fetch("select now(6), a.id, a.lease_token, a.expires_at,"
                        + " a.desk_id, case when a.revision > a.held_revision then a.revision end, a.due_at"
                        + " from article a where a.locked_by = ? and a.expires_at > now(6)", id));
                forms.put("one row by primary key (a counter's read)",
                        () -> dsl.fetch("select now(6), e.capacity from editor e where e.id = ?", id));
                List<HeldArticle>[] hand = new List[] {session.queue().held(id)};
                forms.put("the pool's check before a call (a ping)", () -> {
                    try (java.sql.Connection c = editor.dataSource().getConnection()) {
                        c.isValid(2);
                    } catch (java.sql.SQLException e) {
                        throw new IllegalStateException(e);
                    }
                });
                forms.put("the heartbeat: renew the five leases (a CALL)", () -> hand[0] = session.queue().renew(id, hand[0]).renewed());
                for (int round = 0; round < 2; round++) {
                    for (var form : forms.entrySet()) {
                        for (int i = 0; i < 500; i++) {
                            form.getValue().run();
                        }
                        Map<String, Long> before = ServerCounters.read(admin.dsl());
                        long t0 = System.nanoTime();
                        for (int i = 0; i < READS; i++) {
                            form.getValue().run();
                        }
                        double wall = (System.nanoTime() - t0) / 1e3 / READS;
                        Map<String, Long> d = ServerCounters.delta(before, ServerCounters.read(admin.dsl()));
                        ClaimBenchmark.say("round %d, %d held: %-55s server CPU %6.1f us a read, wall %6.1f us, Queries %.2f a read",
                                round + 1, held, form.getKey(), d.get("cpu_server_us") / (double) READS, wall,
                                d.get("Queries") / (double) READS);
                    }
                }
            }
        }
    }

    /** The forms of {@code -Dbench.spaced}: each editor's read every 3 s, on its own pool. */
    private static void spaced(EmbeddedServer server, Database admin, String desk) throws Exception {
        List<String> ids = IntStream.range(0, SPACED).mapToObj(i -> "spaced" + i).toList();
        ClientNewsroom.addEditors(admin.dsl(), desk, ids);
        List<Database> pools = new ArrayList<>();
        ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(8);
        try {
            Map<String, List<Runnable>> forms = new LinkedHashMap<>();
            Map<String, Long> periods = new LinkedHashMap<>();
            List<ReleaseService> releases = new ArrayList<>();
            for (String id : ids) {
                Database pool = Database.open(server.jdbcUrl("bench_list_read"), id, ClientNewsroom.password(id), null,
                        DataSources.PoolSize.desktop(), Database.SchemaAction.NONE, null);
                pools.add(pool);
                ReviewSession session = new ReviewSession(pool, ReviewSession.Options.defaults());
                List<HeldArticle>[] hand = new List[] {session.queue().claim(id).articles()};
                DSLContext dsl = pool.dsl();
                ReleaseService release = session.releaseService(released -> { });
                releases.add(release);
                form(forms, "nothing sent (connections open)", () -> { });
                form(forms, "SELECT 1", () -> dsl.fetch("select 1"));
                form(forms, "the list watch at capacity (the app's read)", () -> session.listWatch().read(id, List.of()));
                form(forms, "the heartbeat (renew the five leases) every 60 s",
                        () -> hand[0] = session.queue().renew(id, hand[0]).renewed());
                form(forms, "the release service as the app runs it", release::start);
            }
            periods.put("the heartbeat (renew the five leases) every 60 s", 60_000L);
            periods.put("the release service as the app runs it", 0L);
            long seconds = Long.getLong("bench.seconds", 60);
            Random phase = new Random(7);
            for (var form : forms.entrySet()) {
                AtomicLong sent = new AtomicLong();
                List<ScheduledFuture<?>> running = new ArrayList<>();
                long period = periods.getOrDefault(form.getKey(), 3000L);
                for (Runnable read : form.getValue()) {
                    if (period == 0) { // started once; runs on its own schedule
                        read.run();
                        continue;
                    }
                    running.add(scheduler.scheduleAtFixedRate(() -> {
                        read.run();
                        sent.incrementAndGet();
                    }, phase.nextLong(period), period, TimeUnit.MILLISECONDS));
                }
                Thread.sleep(20_000);
                Map<String, Long> before = ServerCounters.read(admin.dsl());
                long sentBefore = sent.get();
                Thread.sleep(seconds * 1000);
                Map<String, Long> d = ServerCounters.delta(before, ServerCounters.read(admin.dsl()));
                long reads = sent.get() - sentBefore;
                running.forEach(f -> f.cancel(false));
                if (form.getKey().startsWith("the release service")) {
                    releases.forEach(ReleaseService::close);
                }
                double perEditor = d.get("cpu_server_us") / 1000.0 / seconds / SPACED;
                ClaimBenchmark.say("%d editors: %-50s server CPU %.3f ms/s per editor, %s us a read, Queries %.2f a read,"
                        + " Questions %.2f a read, connections opened %d, threads created %d", SPACED, form.getKey(), perEditor,
                        reads == 0 ? "-" : String.format("%.0f", d.get("cpu_server_us") / (double) reads),
                        reads == 0 ? 0.0 : d.get("Queries") / (double) reads, reads == 0 ? 0.0 : d.get("Questions") / (double) reads,
                        d.get("Connections"), d.get("Threads_created"));
                Thread.sleep(5_000);
            }
        } finally {
            scheduler.shutdownNow();
            pools.forEach(Database::close);
        }
    }

    private static void form(Map<String, List<Runnable>> forms, String name, Runnable send) {
        forms.computeIfAbsent(name, k -> new ArrayList<>()).add(send);
    }
}
