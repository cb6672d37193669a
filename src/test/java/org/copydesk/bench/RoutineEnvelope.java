package org.copydesk.bench;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import org.copydesk.lease.ClaimStrategyKind;
import org.jooq.DSLContext;

/**
 * What the database's rules cost the editor's path, in the claim benchmark's run. Every operation
 * runs an envelope besides reading and writing its rows: it refuses the caller's transaction and
 * pins the session's settings ({@code operation_begins}), takes the actor from the server's account
 * ({@code resolve_actor}), reads the server's clock, and cleans what people typed ({@code plain_text}).
 * Two measurements, both on the benchmark's server:
 * <ul>
 *   <li>a price list: each part run 20,000 times in a loop inside the server, less the loop itself,
 *       in µs per call, times how often the path calls it per claimed-and-decided row;</li>
 *   <li>the editors' full path again with the envelope taken out ({@link #without}: the three
 *       routines replaced by what a client trusted to behave would do, then put back), side by side
 *       with the full path and the bare client that keeps the same records.</li>
 * </ul>
 * The benchmark's database is dropped at the start of every run; the routines are put back anyway,
 * before the next cell.
 */
final class RoutineEnvelope {

    static final String WITHOUT_LABEL = "EDITORS/SKIP_LOCKED/WITHOUT ENVELOPE/";
    private static final int TIMES = 20_000;

    /**
     * One part of the envelope.
     *
     * @param number the loop's case for it ({@link #LOOP})
     * @param perRow how many times the full path runs it per claimed-and-decided row (a claim of five
     *               per five decisions); 0: not on this benchmark's path
     */
    record Part(int number, String name, String buys, double perRow) {
    }

    static final List<Part> PARTS = List.of(
            new Part(1, "`operation_begins`", "no caller's transaction, lock or session setting reaches an operation", 1.2),
            new Part(2, "`resolve_actor`", "the actor is the signed-in account, never what the client names", 1.2),
            new Part(3, "`server_utc_now()`", "the server's clock, which no session can move", 1.2),
            new Part(4, "`acted_by()`", "who acted for someone else, in the history", 1.2),
            new Part(5, "`plain_text()` of a 2-character note", "no control or bidi character in notes and history", 2.0),
            new Part(6, "`plain_text()` of a 1,000-character note", "the same, for a longer note", 0),
            new Part(7, "a nested `CALL` of an empty procedure", "what splitting a routine into parts costs", 0));

    /** The loop each part is timed in: part 0 is the loop alone. Fixed text, no value from data. */
    private static final String LOOP = """
            CREATE PROCEDURE bench_envelope_loop(IN p_part INT, IN p_times INT)
                SQL SECURITY DEFINER
            BEGIN
                DECLARE i INT DEFAULT 0;
                DECLARE v_name VARCHAR(64);
                DECLARE v_time DATETIME(6);
                DECLARE v_text LONGTEXT;
                WHILE i < p_times DO
                    CASE p_part
                        WHEN 0 THEN SET v_name = NULL;
                        WHEN 1 THEN CALL operation_begins();
                        WHEN 2 THEN CALL resolve_actor(NULL, 'editor', v_name);
                        WHEN 3 THEN SET v_time = server_utc_now();
                        WHEN 4 THEN SET v_name = acted_by('someone');
                        WHEN 5 THEN SET v_text = plain_text('ok', 60000, 1);
                        WHEN 6 THEN SET v_text = plain_text(REPEAT('Lorem ipsum dolor sit amet, consectetur. ', 25), 60000, 1);
                        ELSE CALL bench_envelope_nothing();
                    END CASE;
                    SET i = i + 1;
                END WHILE;
            END""";

    /**
     * One routine of the envelope as the server keeps it, and as a client trusted to behave would have
     * it: the session's isolation (the claim relies on READ COMMITTED), the actor as the caller names
     * it, text as typed. Each statement written out: nothing here is built from data.
     */
    private record Routine(String show, String drop, String trusting) {
    }

    private static final List<Routine> ENVELOPE = List.of(
            new Routine("SHOW CREATE PROCEDURE operation_begins", "DROP PROCEDURE operation_begins", """
                    CREATE PROCEDURE operation_begins() SQL SECURITY DEFINER NO SQL
                        SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED"""),
            new Routine("SHOW CREATE PROCEDURE resolve_actor", "DROP PROCEDURE resolve_actor", """
                    CREATE PROCEDURE resolve_actor(IN p_as VARCHAR(64), IN p_need VARCHAR(16), OUT o_actor VARCHAR(64))
                        SQL SECURITY DEFINER NO SQL
                        SET o_actor = COALESCE(p_as, SUBSTRING_INDEX(USER(), '@', 1))"""),
            new Routine("SHOW CREATE FUNCTION plain_text", "DROP FUNCTION plain_text", """
                    CREATE FUNCTION plain_text(p_text LONGTEXT, p_max INT, p_lines INT) RETURNS LONGTEXT
                        DETERMINISTIC NO SQL SQL SECURITY DEFINER
                        RETURN p_text"""));

    private RoutineEnvelope() {
    }

    static ClaimBenchmark.Cell withoutCell(int owners) {
        return new ClaimBenchmark.Cell(WITHOUT_LABEL + owners, ClaimBenchmark.Kind.EDITORS, ClaimStrategyKind.SKIP_LOCKED, owners);
    }

    static boolean isWithout(ClaimBenchmark.Cell cell) {
        return cell.label().startsWith(WITHOUT_LABEL);
    }

    /** Each part's µs per call (median of three loops, less the loop alone), by part number. */
    static Map<Integer, Double> prices(DSLContext root) {
        return root.connectionResult(c -> {
            try (Statement s = c.createStatement()) {
                s.execute("DROP PROCEDURE IF EXISTS bench_envelope_loop");
                s.execute("DROP PROCEDURE IF EXISTS bench_envelope_nothing");
                s.execute("CREATE PROCEDURE bench_envelope_nothing() SQL SECURITY DEFINER NO SQL BEGIN END");
                s.execute(LOOP);
                try {
                    double loop = microsPerRound(c, 0);
                    Map<Integer, Double> prices = new LinkedHashMap<>();
                    prices.put(0, loop);
                    for (Part part : PARTS) {
                        prices.put(part.number(), microsPerRound(c, part.number()) - loop);
                    }
                    return prices;
                } finally {
                    s.execute("DROP PROCEDURE bench_envelope_loop");
                    s.execute("DROP PROCEDURE bench_envelope_nothing");
                }
            }
        });
    }

    private static double microsPerRound(Connection c, int part) throws SQLException {
        double[] runs = new double[3];
        try (var loop = c.prepareStatement("CALL bench_envelope_loop(?, ?)")) {
            loop.setInt(1, part);
            loop.setInt(2, TIMES);
            for (int i = 0; i < runs.length; i++) {
                long t0 = System.nanoTime();
                loop.execute();
                runs[i] = (System.nanoTime() - t0) / 1000.0 / TIMES;
            }
        }
        Arrays.sort(runs);
        return runs[1];
    }

    /** Runs {@code cell} with the envelope's routines replaced by their trusting forms, and puts them back. */
    static <T> T without(DSLContext root, Supplier<T> cell) {
        List<String[]> saved = new ArrayList<>(); // sql_mode, CREATE statement, in ENVELOPE's order
        root.connection(c -> {
            for (Routine routine : ENVELOPE) {
                try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(routine.show())) {
                    r.next();
                    saved.add(new String[] {r.getString(2), r.getString(3)});
                }
            }
            for (Routine routine : ENVELOPE) {
                replace(c, routine, null, routine.trusting());
            }
        });
        try {
            return cell.get();
        } finally {
            root.connection(c -> {
                for (int i = 0; i < ENVELOPE.size(); i++) {
                    replace(c, ENVELOPE.get(i), saved.get(i)[0], saved.get(i)[1]);
                }
            });
        }
    }

    /** Drops {@code routine} and creates it again from {@code create}, under {@code sqlMode} (null: the session's). */
    private static void replace(Connection c, Routine routine, String sqlMode, String create) throws SQLException {
        try (Statement s = c.createStatement(); var mode = c.prepareStatement("SET SESSION sql_mode = ?")) {
            String before;
            try (ResultSet r = s.executeQuery("SELECT @@SESSION.sql_mode")) {
                r.next();
                before = r.getString(1);
            }
            s.execute(routine.drop());
            mode.setString(1, sqlMode == null ? before : sqlMode);
            mode.execute();
            s.execute(create);
            mode.setString(1, before);
            mode.execute();
        }
    }

    /** The section of the report: the full path with and without the envelope, and the price list. */
    static String render(Map<String, ClaimBenchmark.Result> results, List<Integer> owners, Map<Integer, Double> prices) {
        StringBuilder md = new StringBuilder("\n### What the database's rules cost per row\n\n");
        md.append("The full path (SKIP_LOCKED) again with the envelope taken out: `operation_begins` only sets READ COMMITTED, "
                + "`resolve_actor` takes the name the client gives, `plain_text` returns the text as typed (what a client "
                + "trusted to behave would need; put back after each cell). Same run, same owners.\n\n");
        md.append("| owners | full path rows/s | without the envelope rows/s | bare + records rows/s | full / bare + records "
                + "| without / bare + records | server CPU ms per row: full, without, bare + records "
                + "| statements inside routines per row: full, without |\n");
        md.append("|---:|---:|---:|---:|---:|---:|---|---|\n");
        for (int n : owners) {
            ClaimBenchmark.Result full = results.get(ClaimBenchmark.Cell.editors(ClaimStrategyKind.SKIP_LOCKED, n).label());
            ClaimBenchmark.Result without = results.get(withoutCell(n).label());
            ClaimBenchmark.Result records = results.get(ClaimBenchmark.Cell.bareRecords(n).label());
            if (full == null || without == null || records == null) {
                continue;
            }
            md.append(String.format(Locale.ROOT, "| %d | %.1f | %.1f | %.1f | %.2f× | %.2f× | %.2f, %.2f, %.2f | %.1f, %.1f |%n", n,
                    full.rowsPerSecond(), without.rowsPerSecond(), records.rowsPerSecond(),
                    full.rowsPerSecond() / records.rowsPerSecond(), without.rowsPerSecond() / records.rowsPerSecond(),
                    full.perRow("cpu_server_us") / 1000, without.perRow("cpu_server_us") / 1000,
                    records.perRow("cpu_server_us") / 1000, inRoutines(full), inRoutines(without)));
        }
        if (prices.isEmpty()) {
            return md.toString();
        }
        md.append(String.format(Locale.ROOT, "%nThe price list: each part run %,d times in a loop inside the server, one session, "
                + "median of three loops, less the loop alone (%.2f µs a round: three statements).%n%n", TIMES, prices.get(0)));
        md.append("| part | what it buys | µs per call | calls per row | µs per row |\n|---|---|---:|---:|---:|\n");
        List<String> rows = new ArrayList<>();
        double total = 0;
        for (Part part : PARTS) {
            double price = prices.get(part.number());
            total += price * part.perRow();
            rows.add(String.format(Locale.ROOT, "| %s | %s | %.2f | %s | %s |", part.name(), part.buys(), price,
                    part.perRow() == 0 ? "—" : String.format(Locale.ROOT, "%.1f", part.perRow()),
                    part.perRow() == 0 ? "—" : String.format(Locale.ROOT, "%.1f", price * part.perRow())));
        }
        rows.forEach(r -> md.append(r).append('\n'));
        md.append(String.format(Locale.ROOT, "| **the envelope, per row** | | | | **%.1f** |%n", total));
        return md.toString();
    }

    private static double inRoutines(ClaimBenchmark.Result r) {
        return r.perRow("Queries") - r.perRow("Questions");
    }
}
