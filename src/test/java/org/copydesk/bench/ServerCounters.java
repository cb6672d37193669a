package org.copydesk.bench;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jooq.DSLContext;

/**
 * The server's own counters ({@code SHOW GLOBAL STATUS}) read before and after a measured window.
 * The benchmark's server serves nobody else, so their deltas are what the cell's clients caused
 * (plus the two reads of this class).
 *
 * <ul>
 *   <li>{@code Questions}: statements the clients sent (not those run inside routines and triggers);</li>
 *   <li>{@code Queries}: the same plus every statement run inside stored procedures, functions and
 *       triggers, so {@code Queries - Questions} is the work done inside the database's operations;</li>
 *   <li>{@code Com_commit}: COMMIT statements, from clients and inside routines (a transaction's end);</li>
 *   <li>{@code Handler_commit}: the storage engine's commits, including each autocommitted statement;</li>
 *   <li>{@code Com_set_option}: SET statements (the driver's {@code SET autocommit} among them);</li>
 *   <li>{@code Com_admin_commands}: pings among them (a pool checking a connection before lending it);</li>
 *   <li>{@code Innodb_buffer_pool_pages_flushed}: pages InnoDB wrote back (work done in the background
 *       after writes); {@code Innodb_history_list_length} and {@code Innodb_buffer_pool_pages_dirty} are
 *       levels, not counts (old row versions waiting to be purged, changed pages waiting to be written):
 *       their deltas say whether the background work left by earlier cells grew or shrank;</li>
 *   <li>{@code cpu_server_us} and {@code cpu_client_us}: CPU time (user + system, microseconds) of the
 *       server's process and of this JVM. Per row they measure the work a claim and a decision cost,
 *       which the rows per second on two shared cores show only through other tenants' load.</li>
 * </ul>
 */
final class ServerCounters {

    static final List<String> NAMES = List.of("Questions", "Queries", "Com_call_procedure", "Com_commit", "Handler_commit",
            "Com_select", "Com_update", "Com_insert", "Com_delete", "Com_set_option", "Com_rollback", "Com_stmt_execute",
            "Com_admin_commands", "Innodb_buffer_pool_pages_flushed", "Innodb_history_list_length", "Innodb_buffer_pool_pages_dirty",
            "Connections", "Threads_created", "cpu_server_us", "cpu_client_us");

    private ServerCounters() {
    }

    static Map<String, Long> read(DSLContext admin) {
        Map<String, Long> values = new LinkedHashMap<>();
        for (var r : admin.fetch("show global status")) {
            String name = r.get(0, String.class);
            for (String wanted : NAMES) {
                if (wanted.equalsIgnoreCase(name)) {
                    values.put(wanted, Long.parseLong(r.get(1, String.class)));
                }
            }
        }
        values.put("cpu_server_us", cpuMicros(serverProcess()));
        values.put("cpu_client_us", cpuMicros(ProcessHandle.current()));
        return values;
    }

    /** The embedded server: the benchmark started it, so it is a child of this JVM. */
    private static ProcessHandle serverProcess() {
        return ProcessHandle.current().descendants()
                .filter(p -> p.info().command().map(c -> c.endsWith("mariadbd") || c.endsWith("mysqld")).orElse(false))
                .findFirst()
                .orElse(null);
    }

    private static long cpuMicros(ProcessHandle process) {
        return process == null ? 0 : process.info().totalCpuDuration().map(d -> d.toNanos() / 1000).orElse(0L);
    }

    /** after - before, in the order of {@link #NAMES}. */
    static Map<String, Long> delta(Map<String, Long> before, Map<String, Long> after) {
        Map<String, Long> d = new LinkedHashMap<>();
        for (String name : NAMES) {
            d.put(name, after.getOrDefault(name, 0L) - before.getOrDefault(name, 0L));
        }
        return d;
    }
}
