package org.copydesk.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.jooq.DSLContext;
import org.jooq.Record;

/**
 * What the hostile-editor soak watches besides the calls' outcomes, so that its figures say when and
 * why as well as how much:
 * <ul>
 *   <li>the longest honest calls, each with its kind, editor, when it began (seconds since the
 *   start) and how it ended;</li>
 *   <li>every state in which one look, from the owner's account, saw an honest editor's session
 *   holding row locks in a transaction outside a routine (the process list names the account only
 *   there; in a {@code SQL SECURITY DEFINER} routine it names the routine's owner), with how often and
 *   the oldest such transaction: what the sweep's look could take for a lock holder. The look joins
 *   the process list with InnoDB's list of transactions as the sweep does, so it sees what the sweep
 *   sees, stale pairings included (InnoDB refreshes its list at most every 0.1 s);</li>
 *   <li>every lock wait of 2 s or more one look saw, InnoDB's (who waits, for whom: the blocker's
 *   account, command, state and statement) and metadata locks' (the waiting statement), with when
 *   it was first and last seen (seconds since the start) and the longest wait: what a long call
 *   waited for;</li>
 *   <li>every schema change, with when it began, how long it took and how it ended;</li>
 *   <li>the machine's load average, sampled with the process list.</li>
 * </ul>
 */
final class SoakWatch {

    /** How many of the longest honest calls the report lists. */
    private static final int LONGEST_KEPT = 8;
    private static final Path LOAD_AVERAGE = Path.of("/proc/loadavg");

    /** One honest call: its kind, whose, when it began (ms since the start), how long it took, how it ended. */
    record Call(String kind, String editor, long beganMillis, long tookMillis, String outcome) {
    }

    private volatile long startedNanos = System.nanoTime();
    private final List<Call> longest = new ArrayList<>();
    private final Map<String, long[]> honestLockStates = new ConcurrentHashMap<>();
    private final AtomicLong samples = new AtomicLong();
    private final List<Double> loads = new ArrayList<>();
    /** A long lock wait's description: times seen, longest wait (ms), first and last seen (ms since the start). */
    private final Map<String, long[]> longWaits = new ConcurrentHashMap<>();
    private final List<Call> schemaChanges = new ArrayList<>();

    /** The soak begins now: times are counted from here. */
    void start() {
        startedNanos = System.nanoTime();
    }

    /** Milliseconds since the soak began, for a call's start. */
    long now() {
        return (System.nanoTime() - startedNanos) / 1_000_000;
    }

    /** The kind of call of a schema change: every one is kept, not only the longest. */
    static final String SCHEMA_CHANGE = "schema change";

    /** Keeps the call if it is among the longest so far, and every schema change. */
    synchronized void call(String kind, String editor, long beganMillis, long tookMillis, String outcome) {
        if (kind.equals(SCHEMA_CHANGE)) {
            schemaChanges.add(new Call(kind, editor, beganMillis, tookMillis, outcome));
        }
        if (longest.size() < LONGEST_KEPT || tookMillis > longest.get(longest.size() - 1).tookMillis()) {
            longest.add(new Call(kind, editor, beganMillis, tookMillis, outcome));
            longest.sort(Comparator.comparingLong(Call::tookMillis).reversed());
            if (longest.size() > LONGEST_KEPT) {
                longest.remove(LONGEST_KEPT);
            }
        }
    }

    /**
     * One look, from the owner's account, at the honest editors' sessions ({@code accountPattern},
     * a LIKE pattern) that hold row locks in a transaction, and at the load average.
     */
    void look(DSLContext owner, String accountPattern) {
        samples.incrementAndGet();
        for (Record r : owner.fetch("SELECT p.command, p.state, LEFT(REPLACE(COALESCE(p.info, ''), '\\n', ' '), 40) AS info,"
                + " t.trx_state, t.trx_operation_state,"
                + " TIMESTAMPDIFF(MICROSECOND, t.trx_started, SYSDATE(6)) DIV 1000 AS age_ms"
                + " FROM information_schema.processlist p JOIN information_schema.innodb_trx t ON t.trx_mysql_thread_id = p.id"
                + " WHERE p.user LIKE ? AND (t.trx_rows_locked > 0 OR t.trx_lock_structs > 0)", accountPattern)) {
            String state = String.format(Locale.ROOT, "command %s, state '%s', info '%s', trx %s %s", r.get("command"),
                    r.get("state"), r.get("info"), r.get("trx_state"), r.get("trx_operation_state"));
            long age = r.get("age_ms", Long.class) == null ? 0 : r.get("age_ms", Long.class);
            honestLockStates.compute(state, (k, seen) -> seen == null ? new long[] {1, age}
                    : new long[] {seen[0] + 1, Math.max(seen[1], age)});
        }
        lookAtLongWaits(owner);
        if (samples.get() % 20 == 1) {
            synchronized (loads) {
                loads.add(loadAverage());
            }
        }
    }

    /**
     * The lock waits of 2 s or more now: InnoDB's, each with its blocker (MariaDB's
     * {@code innodb_lock_waits}; a server without it shows none), and the statements waiting for a
     * metadata lock or a table.
     */
    private void lookAtLongWaits(DSLContext owner) {
        long now = now();
        try {
            for (Record r : owner.fetch("SELECT TIMESTAMPDIFF(MICROSECOND, w.trx_wait_started, SYSDATE(6)) DIV 1000 AS waited_ms,"
                    + " LEFT(REPLACE(COALESCE(w.trx_query, ''), '\n', ' '), 30) AS waiting,"
                    + " bp.user, bp.command, bp.state, LEFT(REPLACE(COALESCE(b.trx_query, ''), '\n', ' '), 30) AS blocking"
                    + " FROM information_schema.innodb_lock_waits lw"
                    + " JOIN information_schema.innodb_trx w ON w.trx_id = lw.requesting_trx_id"
                    + " JOIN information_schema.innodb_trx b ON b.trx_id = lw.blocking_trx_id"
                    + " LEFT JOIN information_schema.processlist bp ON bp.id = b.trx_mysql_thread_id"
                    + " WHERE w.trx_wait_started < SYSDATE(6) - INTERVAL 2 SECOND")) {
                longWait(String.format(Locale.ROOT, "row lock: '%s' waits for %s (command %s, state '%s', '%s')", r.get("waiting"),
                        r.get("user"), r.get("command"), r.get("state"), r.get("blocking")), r.get("waited_ms", Long.class), now);
            }
        } catch (RuntimeException e) {
            longWait("row locks not seen: " + e.getMessage(), 0, now);
        }
        try {
            for (Record r : owner.fetch("SELECT user, state, LEFT(REPLACE(COALESCE(info, ''), '\n', ' '), 30) AS info, time_ms"
                    + " FROM information_schema.processlist WHERE state LIKE 'Waiting for%' AND time_ms >= 2000")) {
                longWait(String.format(Locale.ROOT, "%s: %s '%s'", r.get("state"), r.get("user"), r.get("info")),
                        r.get("time_ms", Double.class).longValue(), now);
            }
        } catch (RuntimeException e) {
            longWait("metadata lock waits not seen: " + e.getMessage(), 0, now);
        }
    }

    private void longWait(String what, long waitedMillis, long now) {
        longWaits.merge(what, new long[] {1, waitedMillis, now, now}, (seen, one) -> new long[] {seen[0] + 1,
                Math.max(seen[1], one[1]), seen[2], one[3]});
    }

    /** The one-minute load average now (NaN where /proc is not there). */
    static double loadAverage() {
        try {
            return Double.parseDouble(Files.readString(LOAD_AVERAGE).split(" ")[0]);
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
    }

    /** The report's lines: the longest calls, the states seen, the load. */
    synchronized String report() {
        StringBuilder md = new StringBuilder();
        md.append("Longest honest calls (kind, editor, began at, took, ended):\n\n");
        for (Call c : longest) {
            md.append(String.format(Locale.ROOT, "- %s by %s at %.1f s: %,d ms, %s%n", c.kind(), c.editor(),
                    c.beganMillis() / 1000.0, c.tookMillis(), c.outcome()));
        }
        md.append(String.format(Locale.ROOT, "%nHonest sessions one look saw holding row locks outside a routine (%,d looks at the"
                + " process list joined with InnoDB's transactions; state: times seen, oldest transaction):%n%n", samples.get()));
        if (honestLockStates.isEmpty()) {
            md.append("- none\n");
        }
        new TreeMap<>(honestLockStates).forEach((state, seen) -> md.append(String.format(Locale.ROOT, "- %s: %,d, %,d ms%n",
                state, seen[0], seen[1])));
        md.append("\nSchema changes (began at, took, ended):\n\n");
        for (Call c : schemaChanges) {
            md.append(String.format(Locale.ROOT, "- at %.1f s: %,d ms, %s%n", c.beganMillis() / 1000.0, c.tookMillis(), c.outcome()));
        }
        md.append("\nLock waits of 2 s or more one look saw (what: times seen, longest wait, first and last seen):\n\n");
        if (longWaits.isEmpty()) {
            md.append("- none\n");
        }
        new TreeMap<>(longWaits).forEach((what, seen) -> md.append(String.format(Locale.ROOT, "- %s: %,d, %,d ms, %.1f-%.1f s%n",
                what, seen[0], seen[1], seen[2] / 1000.0, seen[3] / 1000.0)));
        synchronized (loads) {
            DoubleSummary load = DoubleSummary.of(loads);
            md.append(String.format(Locale.ROOT, "%nLoad average (1 min) during the run: min %.1f, mean %.1f, max %.1f (%d samples)%n",
                    load.min(), load.mean(), load.max(), loads.size()));
        }
        return md.toString();
    }

    private record DoubleSummary(double min, double mean, double max) {
        static DoubleSummary of(List<Double> values) {
            return new DoubleSummary(values.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN),
                    values.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN),
                    values.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN));
        }
    }
}
