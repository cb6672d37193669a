package org.copydesk.bench;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.copydesk.db.DataSources;
import org.copydesk.db.Database;
import org.copydesk.db.EmbeddedServer;
import org.copydesk.review.Newsroom;
import org.copydesk.review.ReleaseService;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.Role;
import org.copydesk.testing.Fixtures;

/**
 * Where one read of the list watch spends the server's CPU: the read as the window sends it
 * ({@code ListWatch.read} through the pool) against its parts sent alone on one connection, back to
 * back ({@code bench.reads} of each, 5,000, two rounds): the pool's check of a connection
 * ({@code isValid}, a ping), a statement that reads no table, the clock row, the editor's own
 * leases ({@code ix_article_locked_by}), the waiting work ({@code ix_article_desk_status}, 20 rows
 * and 1), the three as one prepared UNION and as text. Per read: the server process's CPU time
 * (from /proc, 10 ms ticks) and the server's counters ({@code Handler_read_*}, and
 * {@code Com_stmt_execute}: 1 where the server ran a prepared statement, 0 where the driver sent
 * text it parsed anew); and, for comparison, the two other calls an idle window at the screen makes
 * (presence and the sweep turn). Back-to-back reads find every cache warm: a window's read every few seconds
 * costs more (docs/benchmarks.md, "Idle editors"), the shares are what this tells. Not a test: a main
 * on the test class path that prints a table (nothing is written to docs/benchmarks.md); the editor
 * holds nothing and 150,000 articles wait on their desk ({@code bench.articles}), as for the idle
 * clients of {@link IdleClientBenchmark}.
 */
public final class ListWatchCostBreakdown {

    private static final List<String> COUNTERS = List.of("Handler_read_key", "Handler_read_next", "Com_admin_commands",
            "Com_stmt_execute", "Questions", "Queries");
    private static final String NOW = "current_timestamp(6)";
    private static final String CLOCK = "select 'n', cast(null as signed), cast(null as signed), cast(null as datetime(6)), null, "
            + NOW + ", cast(null as signed)";
    private static final String HELD = "select 'h', id, lease_token, expires_at, desk_id, " + NOW
            + ", case when revision > held_revision then revision else null end from article where locked_by = ? and expires_at > "
            + NOW;
    private static final String WAITING = "select 'w', id, null, null, desk_id, " + NOW
            + ", null from article force index (ix_article_desk_status) where desk_id in (?) and status = 'queued'"
            + " and available_at <= " + NOW + " and (locked_by is null or expires_at <= " + NOW + ") limit ";
    private static final String UNION = "(" + HELD + ") union all (" + WAITING + "20) union all (" + CLOCK + ")";

    private interface Read {
        void run(Connection c) throws Exception;
    }

    private interface Reads {
        void run(int n) throws Exception;
    }

    public static void main(String[] args) throws Exception {
        int reads = Integer.getInteger("bench.reads", 5_000);
        Path work = Path.of(System.getProperty("bench.workdir", "target/bench-watch-parts-db"));
        EmbeddedServer server = ListWatchBenchmark.startServer(work);
        try (Database admin = Database.open(server.jdbcUrl("bench_watch_parts"), EmbeddedServer.ROOT_USER, server.rootPassword(), null,
                new DataSources.PoolSize(1, 1), Database.SchemaAction.MIGRATE, null);
             Database app = Database.open(server.jdbcUrl("bench_watch_parts"), EmbeddedServer.ROOT_USER, server.rootPassword(), null,
                     new DataSources.PoolSize(1, 1), Database.SchemaAction.NONE, null)) {
            if (admin.dsl().fetchCount(admin.dsl().selectOne().from("article")) == 0) {
                Fixtures.articles(admin.dsl(), "news", Integer.getInteger("bench.articles", 150_000), 3, -3600);
                new Newsroom(admin.dsl()).addEditor("ann", "Ann", Role.EDITOR, 5, List.of("news"));
                admin.dsl().execute("analyze table article");
            }
            ReviewSession session = new ReviewSession(app, ReviewSession.Options.defaults());
            var watch = session.listWatch();
            Map<String, Read> parts = new LinkedHashMap<>();
            parts.put("the pool's check of a connection (isValid: a ping)", c -> c.isValid(2));
            parts.put("select 1", c -> read(c, "select 1"));
            parts.put("the clock row alone", c -> read(c, CLOCK));
            parts.put("the editor's leases alone (holds none)", c -> read(c, HELD, "ann"));
            parts.put("the waiting work alone, 20 rows", c -> read(c, WAITING + "20", "news"));
            parts.put("the waiting work alone, 1 row", c -> read(c, WAITING + "1", "news"));
            parts.put("leases + clock (an editor at capacity)", c -> read(c, "(" + HELD + ") union all (" + CLOCK + ")", "ann"));
            parts.put("the UNION of the three, prepared", c -> read(c, UNION, "ann", "news"));
            parts.put("the UNION of the three, as text", c -> {
                try (var s = c.createStatement(); ResultSet rs = s.executeQuery(UNION.replaceFirst("\\?", "'ann'")
                        .replaceFirst("\\?", "'news'"))) {
                    drain(rs);
                }
            });
            Map<String, Reads> cells = new LinkedHashMap<>();
            parts.forEach((label, part) -> cells.put(label, n -> {
                try (Connection c = app.dataSource().getConnection()) {
                    for (int i = 0; i < n; i++) {
                        part.run(c);
                    }
                }
            }));
            cells.put("ListWatch.read, nothing held, work waiting (as the window)", n -> {
                for (int i = 0; i < n; i++) {
                    watch.read("ann", List.of("news"));
                }
            });
            cells.put("ListWatch.read, at capacity (no waiting part)", n -> {
                for (int i = 0; i < n; i++) {
                    watch.read("ann", List.of());
                }
            });
            // the other calls an idle window at the screen makes, for comparison
            cells.put("presence (record_presence)", n -> {
                for (int i = 0; i < n; i++) {
                    session.queue().recordPresence("ann");
                }
            });
            ReleaseService release = session.releaseService(released -> { });
            cells.put("the sweep turn (take_sweep_turn, mostly not ours)", n -> {
                for (int i = 0; i < n; i++) {
                    release.runTurn();
                }
            });
            for (Reads cell : cells.values()) {
                cell.run(200); // warm
            }
            ClaimBenchmark.say("%-62s %14s  %s", "call", "server CPU", String.join(" ", COUNTERS));
            for (int round = 1; round <= 2; round++) {
                for (var cell : cells.entrySet()) {
                    measure(cell.getKey(), reads, server, admin, cell.getValue());
                }
            }
        } finally {
            server.close();
        }
    }

    private static void measure(String label, int n, EmbeddedServer server, Database admin, Reads reads) throws Exception {
        Map<String, Long> before = counters(admin);
        double cpu0 = ListWatchBenchmark.cpuSeconds(server.serverPid());
        reads.run(n);
        double cpu1 = ListWatchBenchmark.cpuSeconds(server.serverPid());
        Map<String, Long> after = counters(admin);
        StringBuilder per = new StringBuilder();
        for (String name : COUNTERS) {
            per.append(String.format(Locale.ROOT, " %.2f", (after.get(name) - before.get(name)) / (double) n));
        }
        ClaimBenchmark.say("%-62s %8.0f µs/call %s", label, (cpu1 - cpu0) * 1e6 / n, per);
    }

    private static Map<String, Long> counters(Database admin) {
        Map<String, Long> values = new LinkedHashMap<>();
        for (var r : admin.dsl().fetch("show global status")) {
            if (COUNTERS.contains(r.get(0, String.class))) {
                values.put(r.get(0, String.class), Long.parseLong(r.get(1, String.class)));
            }
        }
        return values;
    }

    private static void read(Connection c, String sql, String... values) throws Exception {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < values.length; i++) {
                ps.setString(i + 1, values[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                drain(rs);
            }
        }
    }

    private static void drain(ResultSet rs) throws Exception {
        while (rs.next()) {
            rs.getObject(1);
        }
    }
}
