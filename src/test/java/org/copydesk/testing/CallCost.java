package org.copydesk.testing;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What one call costs the server, from the calling session's own counters: rows and index entries
 * read (every Handler_read_*), of them the rows of the statements' temporary tables and sorts
 * (Handler_read_rnd_next, Handler_read_rnd: derived tables, window functions, ordered lists), and the
 * statements run, those inside routines included (the Com_* counters, less the CALL itself). Not
 * Queries less Questions: a session's Queries is the server's query id, so it counts every session's
 * statements, and other test JVMs on a shared server once made a forecast look like 617 statements.
 * Each figure is the mean of {@code calls} calls, less what reading the counters itself costs.
 *
 * @param rowsAnswered rows of the result sets of the last call
 */
public record CallCost(long rowsRead, long temporaryRows, long statements, double millis, int rowsAnswered) {

    private static final String STATEMENTS = "statements";

    /** Rows read from tables and indexes: all reads less those of temporary tables and sorts. */
    public long tableRows() {
        return rowsRead - temporaryRows;
    }

    @Override
    public String toString() {
        return String.format("%d rows read (%d of tables and indexes, %d of temporary tables and sorts), %d statements inside, "
                + "%.1f ms, %d rows answered", rowsRead, tableRows(), temporaryRows, statements, millis, rowsAnswered);
    }

    /** {@code call} run {@code calls} times on {@code s}, each after {@code before} (null: nothing), which is not counted. */
    public static CallCost of(Statement s, String before, String call, int calls) throws SQLException {
        Map<String, Long> empty0 = counters(s);
        Map<String, Long> empty1 = counters(s); // what reading the counters itself costs
        long reads = 0;
        long temporary = 0;
        long statements = 0;
        long nanos = 0;
        int answered = 0;
        for (int i = 0; i < calls; i++) {
            if (before != null) {
                s.execute(before);
            }
            Map<String, Long> a = counters(s);
            long t = System.nanoTime();
            answered = drain(s, call);
            nanos += System.nanoTime() - t;
            Map<String, Long> b = counters(s);
            reads += readsBetween(a, b) - readsBetween(empty0, empty1);
            for (String sorted : List.of("Handler_read_rnd_next", "Handler_read_rnd")) {
                temporary += (b.get(sorted) - a.get(sorted)) - (empty1.get(sorted) - empty0.get(sorted));
            }
            statements += (b.get(STATEMENTS) - a.get(STATEMENTS)) - (empty1.get(STATEMENTS) - empty0.get(STATEMENTS)) - 1;
        }
        return new CallCost(reads / calls, temporary / calls, statements / calls, nanos / 1e6 / calls, answered);
    }

    /** Runs {@code call} and reads every result set it returns; the rows read. */
    public static int drain(Statement s, String call) throws SQLException {
        int rows = 0;
        for (boolean r = s.execute(call); r || s.getUpdateCount() != -1; r = s.getMoreResults()) {
            if (r) {
                try (ResultSet rs = s.getResultSet()) {
                    while (rs.next()) {
                        rows++;
                    }
                }
            }
        }
        return rows;
    }

    private static Map<String, Long> counters(Statement s) throws SQLException {
        Map<String, Long> m = new HashMap<>();
        try (ResultSet rs = s.executeQuery("SHOW SESSION STATUS WHERE Variable_name LIKE 'Handler_read%' "
                + "OR Variable_name LIKE 'Com\\_%'")) {
            while (rs.next()) {
                String name = rs.getString(1);
                m.merge(name.startsWith("Com_") ? STATEMENTS : name, rs.getLong(2), Long::sum);
            }
        }
        return m;
    }

    private static long readsBetween(Map<String, Long> a, Map<String, Long> b) {
        return b.entrySet().stream().filter(e -> e.getKey().startsWith("Handler_read")).mapToLong(e -> e.getValue() - a.get(e.getKey()))
                .sum();
    }
}
