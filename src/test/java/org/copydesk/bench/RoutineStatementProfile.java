package org.copydesk.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import org.copydesk.db.DataSources;
import org.copydesk.db.Database;
import org.copydesk.review.AccountAdministration;
import org.copydesk.review.DecisionOutcome;
import org.copydesk.review.DecisionRequest;
import org.copydesk.review.HeldArticle;
import org.copydesk.review.Newsroom;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.Role;
import org.copydesk.review.Verdict;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.TestServer;
import org.jooq.DSLContext;

/**
 * What each statement inside the database's operations costs on the editor's path: one editor,
 * signed in with an account of their own, claims 5 and approves each, as the window does
 * ({@code queue().claim}, {@code decisions().submit}), on a MariaDB with performance_schema's
 * statement timers on ({@link ProfiledMariaDb}). Prints, per claimed-and-decided row, every
 * statement run inside the routines (and the client's own): calls, µs per call and per row (the
 * statement's own time, without the statements nested in it) and its share; then the totals, and
 * the server's {@code Queries - Questions} over the same rows, the figure the claim benchmark reports
 * as statements inside the routines. Not a test; writes nothing.
 *
 * <p>Run: {@code mvn -q test-compile exec:exec@routine-statement-profile} (about a minute). System
 * properties (through {@code -Dbench.args="…"}): {@code bench.rows} rows measured (1,500),
 * {@code bench.warmup} rows before (250), {@code bench.stages} a chain of that many stages on the desk (0),
 * {@code bench.workdir} the server's folder, {@code bench.heartbeat} (true: heartbeats instead, below), {@code bench.keep}
 * (true: leave the server running afterwards, to query it).
 *
 * <p>performance_schema's timers add their own cost to every statement (a few µs each), so the µs are
 * for comparing statements with each other; the claim benchmark's rows per second are the
 * throughput.
 */
public final class RoutineStatementProfile {

    private static final String EDITOR = "profile-ed";
    private static final char[] PASSWORD = "profile-ed-secret-1".toCharArray();
    private static final String DESK = "news";
    private static final int BATCH = 5;
    /** Rows measured between two reads of the history: fewer statements than it holds. */
    private static final int ROWS_PER_READ = 100;
    private static final int HISTORY = 200_000;
    /**
     * {@code -Dbench.heartbeat=true}: the editor claims five once, then each "row" is one heartbeat
     * renewing the five ({@code queue().renew}), the call a window holding work sends every minute.
     */
    private static final boolean HEARTBEAT = Boolean.getBoolean("bench.heartbeat");
    private static List<HeldArticle> hand = List.of();

    private RoutineStatementProfile() {
    }

    public static void main(String[] args) throws Exception {
        int rows = Integer.getInteger("bench.rows", 1500);
        int warmup = Integer.getInteger("bench.warmup", 250);
        Path folder = Path.of(System.getProperty("bench.workdir", "target/routine-profile-db"));
        ProfiledMariaDb server = ProfiledMariaDb.start(Path.of("").toAbsolutePath(), folder, HISTORY);
        try {
            TestServer.Endpoint endpoint = server.endpoint();
            endpoint.execute("DROP DATABASE IF EXISTS profile");
            try (Database admin = Database.open(endpoint.url("profile"), endpoint.user(), endpoint.password().toCharArray(), null,
                    DataSources.PoolSize.of(2), Database.SchemaAction.MIGRATE, null)) {
                DSLContext dsl = admin.dsl();
                String version = dsl.fetchOne("select version()").get(0, String.class);
                newsroom(dsl, rows + warmup + 100);
                // -Dbench.stages=N: the desk with a chain of N stages, every article at the first (StageCells)
                StageCells.chain(dsl, DESK, Integer.getInteger("bench.stages", 0));
                try (Database pool = Database.open(endpoint.accountUrl("profile"), EDITOR, PASSWORD, null,
                        DataSources.PoolSize.of(1), Database.SchemaAction.NONE, null)) {
                    ReviewSession session = new ReviewSession(pool, ReviewSession.Options.defaults());
                    if (HEARTBEAT) {
                        hand = session.queue().claim(EDITOR).articles();
                    }
                    for (int done = 0; done < warmup; ) {
                        done += round(session);
                    }
                    StatementEvents events = new StatementEvents();
                    Map<String, Long> before = ServerCounters.read(dsl);
                    int measured = 0;
                    long t0 = System.nanoTime();
                    while (measured < rows) {
                        StatementEvents.clearHistory(dsl);
                        int chunk = 0;
                        while (chunk < ROWS_PER_READ && measured + chunk < rows) {
                            chunk += round(session);
                        }
                        measured += chunk;
                        events.add(dsl, StatementEvents.threadsOf(dsl, EDITOR), HISTORY);
                    }
                    double seconds = (System.nanoTime() - t0) / 1e9;
                    Map<String, Long> delta = ServerCounters.delta(before, ServerCounters.read(dsl));
                    print(version, measured, seconds, events, delta);
                }
            }
        } finally {
            if (!Boolean.getBoolean("bench.keep")) {
                server.close();
            }
        }
    }

    /** One desk, one editor of capacity 5 with an account of their own, {@code articles} waiting. */
    private static void newsroom(DSLContext dsl, int articles) {
        Fixtures.emptyNewsroom(dsl);
        Newsroom newsroom = new Newsroom(dsl);
        newsroom.addDesk(DESK, "News", Duration.ofMinutes(30));
        newsroom.addEditor(EDITOR, "Profile editor", Role.EDITOR, BATCH, List.of(DESK));
        new AccountAdministration(dsl).createAccount(EDITOR, PASSWORD);
        Fixtures.articles(dsl, DESK, articles, 3, -60);
    }

    /** Get articles, then approve each one held; how many were decided. With {@link #HEARTBEAT}: one renewal of the hand. */
    private static int round(ReviewSession session) {
        if (HEARTBEAT) {
            hand = session.queue().renew(EDITOR, hand).renewed();
            if (hand.size() != BATCH) {
                throw new IllegalStateException("the heartbeat renewed " + hand.size() + " of " + BATCH);
            }
            return 1;
        }
        int decided = 0;
        for (HeldArticle article : session.queue().claim(EDITOR).articles()) {
            DecisionOutcome outcome = session.decisions().submit(new DecisionRequest(UUID.randomUUID(), article.id(),
                    article.lease(), Verdict.APPROVE, "ok"));
            if (!(outcome instanceof DecisionOutcome.Recorded)) {
                throw new IllegalStateException("a decision came back " + outcome);
            }
            decided++;
        }
        if (decided == 0) {
            throw new IllegalStateException("the claim came back empty");
        }
        return decided;
    }

    private static void print(String version, int rows, double seconds, StatementEvents events, Map<String, Long> counters) {
        List<StatementEvents.Sum> sums = events.sums();
        double totalMicros = sums.stream().mapToLong(s -> s.selfPicos).sum() / 1e6 / rows;
        double routineMicros = sums.stream().filter(s -> !s.routine.equals("(client)")).mapToLong(s -> s.selfPicos).sum()
                / 1e6 / rows;
        say("Routine statement profile: %s, performance_schema statement timers on; one editor (own account), %s, %,d %s"
                + " in %.1f s (%.2f ms each with the timers); \"row\" below: %s", version,
                HEARTBEAT ? "holding " + BATCH + ", a heartbeat renewing them" : "claim " + BATCH + " + approve each",
                rows, HEARTBEAT ? "heartbeats" : "rows claimed and decided", seconds, seconds * 1000 / rows,
                HEARTBEAT ? "one heartbeat" : "one claimed-and-decided row");
        say("");
        say("| routine | statement | counted | calls per row | µs per call (median) | µs per row (at the median) | share |");
        say("|---|---|---|---:|---:|---:|---:|");
        sums.stream().sorted(Comparator.comparingLong((StatementEvents.Sum s) -> s.firstSeen)).forEach(s -> say(
                "| %s | %s | %s | %.2f | %.1f (%.1f) | %.1f (%.1f) | %.1f %% |", s.routine, s.statement.replace("|", "\\|"),
                counted(s.kind) ? "yes" : "no", (double) s.calls / rows, s.selfPicos / 1e6 / s.calls,
                StatementEvents.medianMicros(s), s.selfPicos / 1e6 / rows, StatementEvents.medianMicros(s) * s.calls / rows,
                100.0 * s.selfPicos / 1e6 / rows / totalMicros));
        say("");
        Map<String, double[]> byKind = new LinkedHashMap<>();
        Map<String, double[]> byRoutine = new LinkedHashMap<>();
        for (StatementEvents.Sum s : sums) {
            if (s.routine.equals("(client)")) {
                continue;
            }
            double[] k = byKind.computeIfAbsent(s.kind, x -> new double[2]);
            k[0] += (double) s.calls / rows;
            k[1] += s.selfPicos / 1e6 / rows;
            double[] r = byRoutine.computeIfAbsent(s.routine, x -> new double[2]);
            r[0] += (double) s.calls / rows;
            r[1] += s.selfPicos / 1e6 / rows;
        }
        say("| inside routines, by kind | counted in Queries | statements per row | µs per row |");
        say("|---|---|---:|---:|");
        byKind.entrySet().stream().sorted((a, b) -> Double.compare(b.getValue()[0], a.getValue()[0]))
                .forEach(e -> say("| %s | %s | %.1f | %.1f |", e.getKey(), counted(e.getKey()) ? "yes" : "no", e.getValue()[0],
                        e.getValue()[1]));
        say("");
        say("| routine | statements per row | µs per row (own statements) |");
        say("|---|---:|---:|");
        byRoutine.entrySet().stream().sorted((a, b) -> Double.compare(b.getValue()[1], a.getValue()[1]))
                .forEach(e -> say("| %s | %.1f | %.1f |", e.getKey(), e.getValue()[0], e.getValue()[1]));
        say("");
        double sql = byKind.getOrDefault("sp/stmt", new double[2])[0];
        double countedPerRow = byKind.entrySet().stream().filter(e -> counted(e.getKey())).mapToDouble(e -> e.getValue()[0]).sum();
        say("Totals per row: %.1f instructions inside the routines (%.1f of them counted as statements in Queries, %.1f SQL"
                        + " statements), %.1f µs inside the routines, %.1f µs with the client's statements (the CALLs' own"
                        + " time: parsing, the routine's start, the answer).",
                byKind.values().stream().mapToDouble(v -> v[0]).sum(), countedPerRow, sql, routineMicros, totalMicros);
        say("The server's counters over the same rows (SHOW GLOBAL STATUS; the reads of the history add a few client"
                        + " statements): Queries - Questions %.1f per row (the claim benchmark's \"statements inside the"
                        + " routines\"), Questions %.2f, Com_commit %.2f, Com_select %.2f, Com_update %.2f, Com_insert %.2f,"
                        + " Com_set_option %.2f.",
                (double) (counters.get("Queries") - counters.get("Questions")) / rows, (double) counters.get("Questions") / rows,
                perRow(counters, "Com_commit", rows), perRow(counters, "Com_select", rows), perRow(counters, "Com_update", rows),
                perRow(counters, "Com_insert", rows), perRow(counters, "Com_set_option", rows));
    }

    /**
     * Whether the server's {@code Queries} counts an instruction of this kind: those that evaluate a
     * statement or an expression (SQL statements, SET of a variable, IF and WHILE conditions, a
     * function's RETURN, a trigger's SET NEW.x, CASE, opening a cursor); jumps, handler and cursor
     * bookkeeping and FETCH are not. (Their sum per row matched {@code Queries - Questions} exactly.)
     */
    static boolean counted(String kind) {
        return COUNTED.contains(kind);
    }

    private static final java.util.Set<String> COUNTED = java.util.Set.of("sp/stmt", "sp/set", "sp/jump_if_not", "sp/freturn",
            "sp/set_trigger_field", "sp/set_case_expr", "sp/copen");

    private static double perRow(Map<String, Long> counters, String name, int rows) {
        return (double) counters.getOrDefault(name, 0L) / rows;
    }

    private static void say(String format, Object... args) {
        System.out.println(String.format(Locale.ROOT, format, args));
    }
}
