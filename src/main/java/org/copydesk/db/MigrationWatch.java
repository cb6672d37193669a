package org.copydesk.db;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.sql.DataSource;
import org.copydesk.db.SchemaLockHolders.Holder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a migration and the newsroom from waiting on each other. A schema change needs an exclusive
 * metadata lock on what it changes; while it waits for one, every statement that touches the same
 * table queues behind it (claims, decisions). So:
 * <ul>
 *   <li>each statement of the migration waits at most {@value #LOCK_WAIT_SECONDS} s for a lock,
 *       less than the 5 s an operation waits ({@code operation_begins}), so an operation queued
 *       behind a waiting change goes on before its own wait runs out;</li>
 *   <li>before the first statement, and every {@value #LOOK_EVERY_MS} ms while a statement of the
 *       migration waits for a lock, the sessions of the newsroom's accounts that hold what it needs
 *       without working on it ({@link SchemaLockHolders.Holder#holdsWithoutWorking()}: an idle
 *       transaction, a {@code HANDLER}, a long statement, Flyway's named lock) are ended, and each
 *       ending is told; honest clients hold none between operations, and their pools replace an
 *       idle connection that was ended;</li>
 *   <li>while a statement of the migration waits for row locks inside InnoDB, an operation of the
 *       newsroom that holds row locks and waits for a metadata lock the migration holds is ended
 *       (a deadlock neither the server's metadata locks nor InnoDB detect); its client runs it again;</li>
 *   <li>a session the migration may not end (the server's root, a DBA) holds it up at most that
 *       long (Flyway's named lock: {@link #FLYWAY_LOCK_WAIT}); then the migration stops, and
 *       {@link #explain} names that session.</li>
 * </ul>
 */
final class MigrationWatch implements AutoCloseable {

    static final int LOCK_WAIT_SECONDS = 3;
    /** How long a migration waits for Flyway's named lock while another migration (or a DBA's session) has it. */
    static final Duration FLYWAY_LOCK_WAIT = Duration.ofSeconds(10);
    static final long LOOK_EVERY_MS = 200;
    private static final Duration TELL_SESSIONS_AFTER = Duration.ofSeconds(2);
    /** The server's error for a lock waited for too long, a metadata lock or a row's. */
    private static final int LOCK_WAIT_TIMEOUT = 1205;

    private static final Logger log = LoggerFactory.getLogger(MigrationWatch.class);

    private final Connection own;
    private final SchemaLockHolders holders;
    private final MigratingSessions sessions = new MigratingSessions(LOCK_WAIT_SECONDS);
    private final Set<Long> ours = sessions.ids();
    private final List<String> ended = new CopyOnWriteArrayList<>();
    private final Thread thread;
    /** The account migrating: the schema's owner, the definer the operations run as. */
    private String ownAccount;
    private volatile boolean running = true;
    private volatile Holder heldUpBy;
    /** A person's client: bounded waits only. */
    private boolean person;
    private long userLockWaitSince;
    private boolean toldSessions;

    private MigrationWatch(Connection own, SchemaLockHolders holders) {
        this.own = own;
        this.holders = holders;
        this.thread = new Thread(this::watch, "migration-watch");
        this.thread.setDaemon(true);
    }

    /**
     * Looks before the first statement: ends the newsroom's sessions that hold what the change
     * needs, and refuses (nothing changed) when a session it may not end holds a metadata lock on
     * the schema. Then watches until closed.
     */
    static MigrationWatch start(DataSource dataSource, List<String> flywayLocks) {
        Connection own = ownSession(dataSource);
        MigrationWatch watch;
        try {
            watch = new MigrationWatch(own, SchemaLockHolders.of(own, flywayLocks));
            watch.ownAccount = currentAccount(own);
            if (watch.holders.isNewsroomAccount(watch.ownAccount)) {
                // a person's client trying a migration it may not make (it is refused and names the admin's
                // command): it bounds its waits but ends nobody, not even its own other sessions
                watch.person = true;
                return watch;
            }
        } catch (SQLException e) {
            return blind(own, e);
        }
        try {
            log.info("Migration watch on {}: metadata locks seen through {}", watch.holders.schema(), watch.holders.view());
            // Where the server lists metadata locks, a holder is known; with the process list alone, an open
            // transaction may be in any database of the server (another application's, another newsroom's),
            // so it stops the migration only once taking the tables (requireTablesFree) has waited in vain
            boolean listed = watch.holders.view() != SchemaLockHolders.View.PROCESS_LIST;
            for (Holder h : watch.holders.holders(own, watch.ours)) {
                boolean exact = listed || h.holds().startsWith("a transaction");
                if (h.managed() && exact && h.holdsWithoutWorking()) {
                    watch.end(h);
                } else if (!h.managed() && listed && h.holdsWithoutWorking() && !h.holds().contains("Flyway")) {
                    watch.heldUpBy = h;
                }
            }
        } catch (SQLException e) {
            return blind(own, e);
        }
        if (watch.heldUpBy != null) {
            watch.closeQuietly();
            throw new DatabaseSetupException(sentence(watch.heldUpBy, "Nothing was changed."));
        }
        watch.thread.start();
        return watch;
    }

    /** An owner that may not list the other sessions (no PROCESS; copydesk doctor names it): bounded waits, nobody ended. */
    private static MigrationWatch blind(Connection own, SQLException why) {
        log.warn("The migration cannot look at the other sessions ({}): it waits at most {} s for each lock and ends nobody",
                why.getMessage(), LOCK_WAIT_SECONDS);
        return new MigrationWatch(own, null);
    }

    /**
     * Before the first statement: takes every table of the schema for writing (waiting at most
     * {@value #LOCK_WAIT_SECONDS} s, while the watch ends the newsroom's sessions that hold one) and
     * lets go at once. A session the migration may not end that holds a table (a DBA's idle
     * transaction or {@code HANDLER}) then stops it here, with nothing changed, instead of at some
     * statement in the middle of a script. A cluster that refuses {@code LOCK TABLES} is not looked at.
     */
    void requireTablesFree(DataSource watched) {
        if (person) {
            return;
        }
        try (Connection c = watched.getConnection(); Statement s = c.createStatement()) {
            List<String> tables = new ArrayList<>();
            try (ResultSet r = s.executeQuery("select table_name from information_schema.tables"
                    + " where table_schema = database() and table_type = 'BASE TABLE' order by table_name")) {
                while (r.next()) {
                    String name = r.getString(1);
                    if (name.matches("[A-Za-z0-9_$]+")) { // the names Copydesk gives; none needs more than backticks
                        tables.add("`" + name + "` write");
                    }
                }
            }
            if (tables.isEmpty()) {
                return;
            }
            try {
                s.execute("lock tables " + String.join(", ", tables));
            } finally {
                s.execute("unlock tables");
            }
        } catch (SQLException e) {
            Optional<String> heldUp = explain(e, "Nothing was changed.");
            if (heldUp.isPresent()) {
                throw new DatabaseSetupException(heldUp.get(), e);
            }
            log.warn("Could not take the schema's tables before migrating ({}); migrating all the same", e.getMessage());
        }
    }

    private static String currentAccount(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery("select substring_index(current_user(), '@', 1)")) {
            r.next();
            return r.getString(1);
        }
    }

    /** One line per session ended, to be told to whoever runs the migration. */
    List<String> ended() {
        return List.copyOf(ended);
    }

    /**
     * The one line for a migration that stopped because it waited too long for a lock, naming
     * what held it up as far as the server says; empty when {@code failure} is something else.
     */
    Optional<String> explain(Throwable failure, String whatChanged) {
        boolean lockWait = false;
        for (Throwable t = failure; t != null; t = t.getCause()) {
            lockWait |= t instanceof SQLException s && s.getErrorCode() == LOCK_WAIT_TIMEOUT;
            lockWait |= t.getMessage() != null && t.getMessage().contains("named lock");
        }
        if (!lockWait) {
            return Optional.empty();
        }
        Holder h = heldUpBy;
        if (h != null) {
            return Optional.of(sentence(h, whatChanged));
        }
        return Optional.of("The schema change waited " + LOCK_WAIT_SECONDS + " s for a lock and stopped. " + whatChanged
                + " The server does not say who holds it (" + howToSee() + "); SHOW PROCESSLIST lists the sessions:"
                + " end the one holding it, then run copydesk db migrate again.");
    }

    private String howToSee() {
        if (holders == null) {
            return "the owner may not list the other sessions: it needs PROCESS";
        }
        return switch (holders.view()) {
            case PROCESS_LIST -> "to see it: on MySQL GRANT SELECT ON performance_schema.metadata_locks and"
                    + " performance_schema.threads to the owner; on MariaDB INSTALL SONAME 'metadata_lock_info'";
            default -> "it held no metadata lock on this schema that the server lists";
        };
    }

    private static String sentence(Holder h, String whatChanged) {
        return "The schema change waited for " + h.describe() + " and stopped. " + whatChanged
                + " End that session (KILL " + h.connectionId() + ") or ask whoever runs it to, then run copydesk db migrate again.";
    }

    /** The migration's connections: bounded lock waits, known to the watch, their settings put back when returned. */
    DataSource source(DataSource delegate) {
        return sessions.source(delegate);
    }

    private void watch() {
        while (running) {
            try {
                Thread.sleep(LOOK_EVERY_MS);
                look();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (SQLException e) {
                if (running) {
                    log.warn("The migration watch could not look at the sessions: {}", e.getMessage());
                }
            }
        }
    }

    private void look() throws SQLException {
        boolean metadataWait = false;
        boolean rowLockWait = false;
        Long userLockWaiter = null;
        boolean slow = false;
        List<Holder> crossing = new ArrayList<>();
        try (Statement s = own.createStatement(); ResultSet r = s.executeQuery("select p.id, coalesce(p.state, ''), p.time,"
                + " p.user, p.command, t.trx_state, coalesce(t.trx_rows_locked, 0) from information_schema.processlist p"
                + " left join information_schema.innodb_trx t on t.trx_mysql_thread_id = p.id"
                + " where p.command in ('Query', 'Execute')")) {
            while (r.next()) {
                long id = r.getLong(1);
                String state = r.getString(2).toLowerCase(Locale.ROOT);
                if (ours.contains(id)) {
                    slow |= r.getLong(3) >= TELL_SESSIONS_AFTER.toSeconds();
                    rowLockWait |= "LOCK WAIT".equals(r.getString(6));
                    if (state.contains("user lock")) {
                        userLockWaiter = id;
                    } else if (state.contains("lock")) {
                        metadataWait = true;
                    }
                } else if (state.contains("metadata lock") && r.getLong(7) > 0 && newsroomCall(r.getString(4))) {
                    crossing.add(new Holder(id, r.getString(4), r.getString(5), r.getLong(3), r.getString(2),
                            "waiting for a metadata lock the schema change holds, with " + r.getLong(7)
                                    + " rows locked that it waits for: each waited for the other", true));
                }
            }
        }
        if (slow && !toldSessions) {
            toldSessions = true;
            logSessions();
        }
        if (rowLockWait) {
            // A deadlock neither lock system sees: a copying ALTER (V29's CHECK on desk) holds the table's
            // metadata lock and waits, at its rename, for row locks that an operation took before it came to
            // that table and now waits for its metadata lock (MigrationWhileWorkingTest, embedded 11.4.5).
            // Left alone the change gives up after its lock wait, partway through a script; the operation's
            // session is ended instead, as InnoDB would choose a victim, and its client runs it again.
            crossing.forEach(this::end);
        }
        if (!metadataWait && userLockWaiter == null) {
            userLockWaitSince = 0;
            return;
        }
        for (Holder h : holders.holders(own, ours)) {
            boolean flyway = h.holds().contains("Flyway's lock");
            if (!(flyway ? userLockWaiter != null : metadataWait) || !(flyway || h.holdsWithoutWorking())) {
                continue;
            }
            if (h.managed()) {
                end(h);
            } else {
                heldUpBy = h;
            }
        }
        if (userLockWaiter != null) {
            long now = System.nanoTime();
            userLockWaitSince = userLockWaitSince == 0 ? now : userLockWaitSince;
            if (heldUpBy != null && now - userLockWaitSince > FLYWAY_LOCK_WAIT.toNanos()) {
                // Flyway asks again for ever; its own session ended, it stops
                log.warn("Flyway's named lock is held by {}: stopping the migration", heldUpBy.describe());
                SchemaLockHolders.end(own, userLockWaiter);
            }
        }
    }

    /**
     * An operation of the newsroom under way: a newsroom account's session, or one showing the
     * schema owner's account (the operations run as their definer, the owner, which is also the
     * account that migrates).
     */
    private boolean newsroomCall(String account) {
        return account != null && (holders.isNewsroomAccount(account) || account.equals(ownAccount));
    }

    /**
     * Once per migration, when a statement of it has run for {@link #TELL_SESSIONS_AFTER} (most of
     * its lock wait): every session as the server lists it, with its transaction, so that the admin
     * (and whoever reads the log of a test that failed) sees what held the change up, also where the
     * server lists no metadata locks or the wait is for a row or table lock inside InnoDB.
     */
    private void logSessions() throws SQLException {
        StringBuilder lines = new StringBuilder();
        try (Statement s = own.createStatement(); ResultSet r = s.executeQuery(
                "select p.id, p.user, p.command, p.time, coalesce(p.state, ''), coalesce(concat(t.trx_state, ' since ',"
                        + " t.trx_started, ', ', t.trx_rows_locked, ' rows locked'), 'no transaction'),"
                        + " left(coalesce(p.info, ''), 60) from information_schema.processlist p"
                        + " left join information_schema.innodb_trx t on t.trx_mysql_thread_id = p.id"
                        + " where p.id <> connection_id() order by p.id")) {
            while (r.next()) {
                lines.append(System.lineSeparator()).append("  ").append(r.getLong(1)).append(' ').append(r.getString(2))
                        .append(' ').append(r.getString(3)).append(' ').append(r.getLong(4)).append(" s ")
                        .append(r.getString(5)).append("; ").append(r.getString(6)).append(" | ")
                        .append(r.getString(7).replaceAll("\\s+", " "));
            }
        }
        log.info("A statement of the migration has run {} s; the sessions now (id, account, command, seconds, state;"
                + " transaction | statement):{}", TELL_SESSIONS_AFTER.toSeconds(), lines);
    }

    private void end(Holder h) {
        if (SchemaLockHolders.end(own, h.connectionId())) {
            String line = "Ended " + h.describe() + ": it kept the schema change waiting.";
            log.warn(line);
            ended.add(line);
        }
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
        try {
            thread.join(2_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        closeQuietly();
    }

    private void closeQuietly() {
        closeQuietly(own);
    }

    private static void closeQuietly(Connection c) {
        try {
            c.close();
        } catch (SQLException e) {
            log.debug("closing the migration watch's session: {}", e.getMessage());
        }
    }

    /**
     * A session of its own, outside the pool (a migrating pool of two may need both of its
     * connections), with the pool's account and settings.
     */
    private static Connection ownSession(DataSource dataSource) {
        try {
            if (dataSource.isWrapperFor(HikariDataSource.class)) {
                HikariDataSource pool = dataSource.unwrap(HikariDataSource.class);
                Properties p = new Properties();
                p.putAll(pool.getDataSourceProperties());
                if (pool.getUsername() != null) {
                    p.setProperty("user", pool.getUsername());
                }
                if (pool.getPassword() != null) {
                    p.setProperty("password", pool.getPassword());
                }
                return DriverManager.getConnection(pool.getJdbcUrl(), p);
            }
            return dataSource.getConnection();
        } catch (SQLException e) {
            throw new DatabaseSetupException("Opening a session to watch the migration failed: " + e.getMessage(), e);
        }
    }
}
