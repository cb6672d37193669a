package org.copydesk.bench;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.jooq.DSLContext;
import org.jooq.Record;

/**
 * The statements one account's connections ran, as performance_schema's
 * {@code events_statements_history_long} saw them, summed per routine and statement. Each
 * statement's own time is its time less that of the statements nested in it (a routine's statements
 * in its CALL, a function's in the statement that called it), so the times add up to the time of the
 * client's calls without counting a nested statement twice.
 */
final class StatementEvents {

    private static final Pattern SPACES = Pattern.compile("\\s+");

    /** Statements summed under one routine and one text. */
    static final class Sum {
        final String routine;
        final String statement;
        final String kind;
        final List<Long> selfTimes = new ArrayList<>();
        long calls;
        long selfPicos;
        long rowsExamined;
        long firstSeen = Long.MAX_VALUE;

        Sum(String routine, String statement, String kind) {
            this.routine = routine;
            this.statement = statement;
            this.kind = kind;
        }
    }

    private final Map<String, Sum> sums = new LinkedHashMap<>();
    private long events;
    private long order;

    /** The server's threads of an account's connections (a pool replaces connections now and then). */
    static List<Long> threadsOf(DSLContext admin, String account) {
        return admin.fetch("select thread_id from performance_schema.threads where processlist_user = ?", account)
                .getValues(0, Long.class);
    }

    /** Empties the server's history (every thread's). */
    static void clearHistory(DSLContext admin) {
        admin.execute("truncate table performance_schema.events_statements_history_long");
    }

    /**
     * Adds what {@code threads} ran since the history was last emptied. Fails when the history is
     * full, since its oldest statements would be gone.
     */
    void add(DSLContext admin, List<Long> threads, long historySize) {
        List<Record> rows = admin.fetch("select thread_id, event_id, nesting_event_id, event_name, object_name, sql_text,"
                + " digest_text, timer_wait, rows_examined from performance_schema.events_statements_history_long"
                + " order by thread_id, event_id");
        if (rows.size() >= historySize) {
            throw new IllegalStateException("the statement history filled up (" + rows.size() + " statements): profile fewer"
                    + " rounds at a time or start the server with a longer history");
        }
        Map<Long, Long> nestedPicos = new HashMap<>();
        List<Record> mine = new ArrayList<>();
        for (Record r : rows) {
            if (!threads.contains(r.get("thread_id", Long.class))) {
                continue;
            }
            mine.add(r);
            Long parent = r.get("nesting_event_id", Long.class);
            if (parent != null) {
                nestedPicos.merge(key(r, parent), picos(r), Long::sum);
            }
        }
        // an instruction without text (SET of a variable, IF, a cursor's step) is named by the statement
        // before it in the same call: "sp/set after `START TRANSACTION`"
        Map<Long, String> lastText = new HashMap<>();
        for (Record r : mine) {
            long self = picos(r) - nestedPicos.getOrDefault(key(r, r.get("event_id", Long.class)), 0L);
            String routine = r.get("object_name", String.class);
            String kind = r.get("event_name", String.class).replaceFirst("^statement/", "");
            String text = routine == null ? r.get("digest_text", String.class) : r.get("sql_text", String.class);
            Long parent = r.get("nesting_event_id", Long.class);
            long place = parent == null ? -1 : key(r, parent);
            String statement;
            if (text == null) {
                String before = lastText.get(place);
                statement = kind + (before == null ? " at the start" : " after `" + (before.length() > 40
                        ? before.substring(0, 37) + "..." : before) + "`");
            } else {
                statement = "`" + shorten(text) + "`";
                lastText.put(place, shorten(text));
            }
            Sum sum = sums.computeIfAbsent((routine == null ? "" : routine) + "\u0000" + statement,
                    k -> new Sum(routine == null ? "(client)" : routine, statement, kind));
            sum.calls++;
            sum.selfPicos += self;
            sum.selfTimes.add(self);
            sum.rowsExamined += r.get("rows_examined", Long.class);
            sum.firstSeen = Math.min(sum.firstSeen, order++);
            events++;
        }
    }

    private static long key(Record r, long eventId) {
        return r.get("thread_id", Long.class) * 1_000_000_000_000L + eventId;
    }

    private static long picos(Record r) {
        Long t = r.get("timer_wait", Long.class);
        return t == null ? 0 : t;
    }

    /** One line, at most 110 characters. */
    static String shorten(String text) {
        String s = SPACES.matcher(text).replaceAll(" ").trim();
        return s.length() > 110 ? s.substring(0, 107) + "..." : s;
    }

    /** The median of a statement's own times, in µs. */
    static double medianMicros(Sum sum) {
        List<Long> sorted = sum.selfTimes.stream().sorted().toList();
        return sorted.isEmpty() ? 0 : sorted.get(sorted.size() / 2) / 1e6;
    }

    List<Sum> sums() {
        return List.copyOf(sums.values());
    }

    long events() {
        return events;
    }
}
