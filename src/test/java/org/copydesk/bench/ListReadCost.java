package org.copydesk.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
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
import org.jooq.impl.DSL;

/**
 * What one read of a window's list costs the server, by the form of the statement: each form sent
 * back to back on one editor's own connection (the desktop pool, server-side prepared statements),
 * the server's CPU per statement from its process's CPU time. The editor holds a full hand; the
 * reads are those of a window at capacity (no waiting work asked). Not a test: a main on the test
 * class path ({@code mvn -q test-compile exec:exec@list-read-cost}). {@code -Dbench.forms=SELECT 1,list watch}
 * runs only the forms whose names contain one of these, in either mode.
 */
public final class ListReadCost {

    private static final int READS = Integer.getInteger("bench.reads", 20_000);
    /**
     * {@code -Dbench.spaced=N}: instead, N editors holding a full hand each send one form every 3 s
     * (the holding window's interval, each at its own phase) for {@code bench.seconds} (60) after 20 s:
     * what a read costs the server when it comes on a connection that sat idle, as the window's do.
     */
    private static final int SPACED = Integer.getInteger("bench.spaced", 0);
    private static final String HELD_COLUMNS = "select now(6), a.id, a.lease_token, a.expires_at,"
            + " a.desk_id, case when a.revision > a.held_revision then a.revision end, a.due_at";
    /** The list watch's statement at capacity, as text. */
    private static final String HELD_ROWS = HELD_COLUMNS + " from article a where a.locked_by = ? and a.expires_at > now(6)";
    private static final String HELD_ROWS_FORCED = HELD_COLUMNS
            + " from article a force index (ix_article_locked_by) where a.locked_by = ? and a.expires_at > now(6)";
    private static final String HELD_ROWS_ANY_EXPIRY = HELD_COLUMNS + " from article a where a.locked_by = ?";
    private static final String ONE_ROW_BY_KEY = "select now(6), e.capacity from editor e where e.id = ?";
    private static final String WAITING_IN_THE_SERVER = "a routine waiting in the server, looking every 3 s";
    private static final int WAIT_LOOKS_EVERY = 3;
    private static final int WAIT_ANSWERS_AFTER = 30;

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
                forms.put("held rows LEFT JOINed to one clock row", () -> dsl.fetch(HELD_COLUMNS
                        + " from (select 1) c left join article a on a.locked_by = ? and a.expires_at > now(6)", id));
                forms.put("held rows alone", () -> dsl.fetch(HELD_ROWS, id));
                forms.put("one row by primary key (a counter's read)", () -> dsl.fetch(ONE_ROW_BY_KEY, id));
                List<HeldArticle>[] hand = new List[] {session.queue().held(id)};
                forms.put("the pool's check before a call (a ping)", () -> {
                    try (java.sql.Connection c = editor.dataSource().getConnection()) {
                        c.isValid(2);
                    } catch (java.sql.SQLException e) {
                        throw new IllegalStateException(e);
                    }
                });
                forms.put("the heartbeat: renew the five leases (a CALL)", () -> hand[0] = session.queue().renew(id, hand[0]).renewed());
                forms.keySet().removeIf(form -> !isWanted(form));
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
                form(forms, "held rows alone (the list's statement as text)", () -> dsl.fetch(HELD_ROWS, id));
                form(forms, "held rows alone, FORCE INDEX (ix_article_locked_by)", () -> dsl.fetch(HELD_ROWS_FORCED, id));
                form(forms, "held rows alone, no expiry test", () -> dsl.fetch(HELD_ROWS_ANY_EXPIRY, id));
                form(forms, "one row by primary key (a counter's read)", () -> dsl.fetch(ONE_ROW_BY_KEY, id));
                form(forms, WAITING_IN_THE_SERVER,
                        () -> dsl.execute("call bench_await_hand(?, ?, ?)", id, WAIT_ANSWERS_AFTER, WAIT_LOOKS_EVERY));
            }
            if (isWanted(WAITING_IN_THE_SERVER)) {
                awaitHandRoutine(admin.dsl(), ids);
            }
            periods.put("the heartbeat (renew the five leases) every 60 s", 60_000L);
            periods.put("the release service as the app runs it", 0L);
            periods.put(WAITING_IN_THE_SERVER, -1L);
            long seconds = Long.getLong("bench.seconds", 60);
            Random phase = new Random(7);
            for (var form : forms.entrySet()) {
                if (!isWanted(form.getKey())) {
                    continue;
                }
                AtomicLong sent = new AtomicLong();
                List<ScheduledFuture<?>> running = new ArrayList<>();
                AtomicBoolean waiting = new AtomicBoolean(true);
                List<Thread> waiters = new ArrayList<>();
                long period = periods.getOrDefault(form.getKey(), 3000L);
                for (Runnable read : form.getValue()) {
                    if (period == 0) { // started once; runs on its own schedule
                        read.run();
                        continue;
                    }
                    if (period < 0) { // a call that waits in the server, again as soon as it answers, on a thread of its own
                        long startAfter = phase.nextLong(WAIT_LOOKS_EVERY * 1000L);
                        Thread waiter = new Thread(() -> {
                            pause(startAfter);
                            while (waiting.get()) {
                                read.run();
                                sent.incrementAndGet();
                            }
                        });
                        waiter.setDaemon(true);
                        waiter.start();
                        waiters.add(waiter);
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
                waiting.set(false);
                for (Thread waiter : waiters) {
                    waiter.join();
                }
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

    /** {@code -Dbench.forms}: the forms whose names contain one of these (comma-separated); all when not given. */
    private static boolean isWanted(String form) {
        List<String> only = Arrays.stream(System.getProperty("bench.forms", "").split(",")).map(String::strip)
                .filter(f -> !f.isEmpty()).toList();
        return only.isEmpty() || only.stream().anyMatch(form::contains);
    }

    /**
     * What "the server telling the window when to look" would cost without a way for the server to
     * tell (MySQL and MariaDB have none): a routine that looks at the editor's hand every
     * {@value #WAIT_LOOKS_EVERY} s inside the server and answers when it changed, or after
     * {@value #WAIT_ANSWERS_AFTER} s. The bench's own, in its database, not the product's.
     */
    private static void awaitHandRoutine(DSLContext root, List<String> editors) {
        root.execute("create or replace procedure bench_await_hand(p_editor varchar(64), p_seconds int, p_step int)"
                + " sql security definer reads sql data begin"
                + " declare v_seen varchar(200); declare v_now varchar(200); declare v_waited int default 0;"
                + " select concat(count(*), ':', coalesce(sum(lease_token), 0), ':', coalesce(max(expires_at), '')) into v_seen"
                + "   from article where locked_by = p_editor;"
                + " w: loop do sleep(p_step); set v_waited = v_waited + p_step;"
                + "   select concat(count(*), ':', coalesce(sum(lease_token), 0), ':', coalesce(max(expires_at), '')) into v_now"
                + "     from article where locked_by = p_editor;"
                + "   if v_now <> v_seen or v_waited >= p_seconds then leave w; end if;"
                + " end loop;"
                + " select a.id, a.lease_token, a.expires_at from article a where a.locked_by = p_editor; end");
        for (String editor : editors) {
            String host = root.fetchValue("select host from mysql.user where user = ?", editor).toString();
            root.execute("grant execute on procedure bench_await_hand to {0}@{1}", DSL.inline(editor), DSL.inline(host));
        }
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void form(Map<String, List<Runnable>> forms, String name, Runnable send) {
        forms.computeIfAbsent(name, k -> new ArrayList<>()).add(send);
    }
}
