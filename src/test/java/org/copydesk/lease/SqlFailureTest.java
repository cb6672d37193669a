package org.copydesk.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.TestDatabase;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The one classifier, fed with failures the real server produced in this run (a deadlock, a lock
 * wait timeout, a killed connection, refused values and sign-ins, an exhausted pool), as they
 * reach Copydesk: straight from the driver and wrapped by jOOQ. Then the one retry policy, with
 * those same exceptions.
 */
@ExtendWith(DatabaseExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SqlFailureTest {

    private final TestDatabase db;

    SqlFailureTest(TestDatabase db) {
        this.db = db;
    }

    @BeforeAll
    void probeTable() throws SQLException {
        try (Connection c = connect(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS sql_failure_probe (id INT PRIMARY KEY, v INT NOT NULL,"
                    + " CONSTRAINT ck_probe_v CHECK (v < 100))");
            s.execute("INSERT IGNORE INTO sql_failure_probe VALUES (1, 0), (2, 0)");
            s.execute("CREATE TABLE IF NOT EXISTS sql_failure_probe_child (id INT PRIMARY KEY, probe_id INT NOT NULL,"
                    + " CONSTRAINT fk_probe_child FOREIGN KEY (probe_id) REFERENCES sql_failure_probe (id))");
        }
    }

    private Connection connect() throws SQLException {
        Connection c = db.endpoint().adminConnection();
        c.setCatalog(db.name());
        return c;
    }

    @Test
    void aDeadlockIsAConflictStraightFromTheDriverAndThroughJooq() throws Exception {
        Exception deadlock = deadlock(true);
        assertThat(SqlFailure.vendorCode(deadlock)).isEqualTo(1213);
        assertThat(SqlFailure.of(deadlock)).isEqualTo(SqlFailure.CONFLICT);
        Exception throughJooq = deadlock(false);
        assertThat(throughJooq).isInstanceOf(org.jooq.exception.DataAccessException.class);
        assertThat(SqlFailure.of(throughJooq)).isEqualTo(SqlFailure.CONFLICT);
    }

    @Test
    void aLockWaitTimeoutIsAConflict() throws Exception {
        Exception timeout = lockWaitTimeout();
        assertThat(SqlFailure.vendorCode(timeout)).isEqualTo(1205);
        assertThat(SqlFailure.of(timeout)).isEqualTo(SqlFailure.CONFLICT);
    }

    @Test
    void aKilledConnectionIsLostBothUnderTheStatementAndOnTheNextOne() throws Exception {
        Exception[] killed = killedConnection();
        assertThat(SqlFailure.of(killed[0])).as("the statement the kill interrupted: %s", killed[0]).isEqualTo(SqlFailure.CONNECTION_LOST);
        assertThat(SqlFailure.of(killed[1])).as("the next statement on that connection: %s", killed[1])
                .isEqualTo(SqlFailure.CONNECTION_LOST);
        assertThat(SqlFailure.of(new org.jooq.exception.DataAccessException("SQL [select 1]; " + killed[1].getMessage(), killed[1])))
                .isEqualTo(SqlFailure.CONNECTION_LOST);
    }

    @Test
    void anExhaustedPoolIsALostConnection() throws Exception {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(db.url());
        config.setUsername(db.endpoint().user());
        config.setPassword(db.endpoint().password());
        config.setMaximumPoolSize(1);
        config.setConnectionTimeout(250);
        try (HikariDataSource pool = new HikariDataSource(config); Connection held = pool.getConnection()) {
            SQLException timeout = org.assertj.core.api.Assertions.catchThrowableOfType(SQLException.class, pool::getConnection);
            assertThat(SqlFailure.of(timeout)).as("%s", timeout).isEqualTo(SqlFailure.CONNECTION_LOST);
            assertThat(held.isValid(1)).isTrue();
        }
    }

    @Test
    void refusedValuesSignInsAndDatabasesAreToldApart() throws Exception {
        try (Connection c = connect(); Statement s = c.createStatement()) {
            assertThat(SqlFailure.of(failure(() -> s.execute("INSERT INTO sql_failure_probe VALUES (1, 0)"))))
                    .as("duplicate key").isEqualTo(SqlFailure.VALUE_REFUSED);
            assertThat(SqlFailure.of(failure(() -> s.execute("UPDATE sql_failure_probe SET v = 500 WHERE id = 2"))))
                    .as("check constraint").isEqualTo(SqlFailure.VALUE_REFUSED);
            assertThat(SqlFailure.of(failure(() -> s.execute("SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: no'"))))
                    .as("a refusal by a Copydesk operation").isEqualTo(SqlFailure.OTHER);
            assertThat(SqlFailure.of(failure(() -> s.execute("CALL no_such_routine_here()"))))
                    .as("a routine an upgrade is making again").isEqualTo(SqlFailure.ROUTINE_MISSING);
        }
        Properties wrong = new Properties();
        wrong.setProperty("user", db.endpoint().user());
        wrong.setProperty("password", db.endpoint().password() + "-wrong");
        String base = db.url().replaceFirst("/[^/?]*\\?.*$", "/");
        String options = "?sslMode=DISABLED&allowPublicKeyRetrieval=true";
        assertThat(SqlFailure.of(failure(() -> DriverManager.getConnection(base + db.name() + options, wrong).close())))
                .isEqualTo(SqlFailure.SIGN_IN_REFUSED);
        Properties right = new Properties();
        right.setProperty("user", db.endpoint().user());
        right.setProperty("password", db.endpoint().password());
        assertThat(SqlFailure.of(failure(() -> DriverManager.getConnection(base + "no_such_database_here" + options, right).close())))
                .isEqualTo(SqlFailure.UNKNOWN_DATABASE);
    }

    @Test
    void conflictsAreRetriedAndALostConnectionOnlyForWorkSafeToRepeat() throws Exception {
        Exception lost = killedConnection()[1];
        Exception conflict = deadlock(false);
        TransientErrors retries = new TransientErrors(
                new RetryPolicy(3, Duration.ofMillis(1), Duration.ofMillis(2), Duration.ofSeconds(5)));

        AtomicInteger calls = new AtomicInteger();
        assertThat(retries.retrying("claim", true, () -> failFirst(calls, 2, lost))).isEqualTo("done");
        assertThat(calls).hasValue(3);

        calls.set(0);
        assertThatThrownBy(() -> retries.retrying("release", false, () -> failFirst(calls, 1, lost))).hasCauseReference(lost);
        assertThat(calls).as("not safe to repeat: tried once").hasValue(1);

        calls.set(0);
        assertThat(retries.retrying("release", false, () -> failFirst(calls, 2, conflict))).isEqualTo("done");

        calls.set(0);
        assertThatThrownBy(() -> retries.retrying("claim", () -> failFirst(calls, 99, conflict)))
                .isInstanceOf(DatabaseBusyException.class);
        assertThat(calls).as("bounded").hasValue(3);

        // a routine missing while an upgrade makes it again: tried again, whatever the work, for a few seconds only
        Exception missing;
        try (Connection c = connect(); Statement s = c.createStatement()) {
            missing = failure(() -> s.execute("CALL no_such_routine_here()"));
        }
        calls.set(0);
        assertThat(retries.retrying("release", false, () -> failFirst(calls, 5, missing))).isEqualTo("done");
        assertThat(calls).as("past the policy's three attempts: bounded by time").hasValue(6);
        calls.set(0);
        long began = System.nanoTime();
        assertThatThrownBy(() -> retries.retrying("release", false, () -> failFirst(calls, 1_000, missing))).hasCauseReference(missing);
        assertThat(Duration.ofNanos(System.nanoTime() - began)).isBetween(TransientErrors.SCHEMA_CHANGE_FOR,
                TransientErrors.SCHEMA_CHANGE_FOR.plusSeconds(2));

        // a foreign key's parent not found, as in the instant MariaDB puts a rebuilt parent table in place:
        // tried again for the same few seconds, whatever the work; one that lasts is still a refused value
        Exception noParent;
        try (Connection c = connect(); Statement s = c.createStatement()) {
            noParent = failure(() -> s.execute("INSERT INTO sql_failure_probe_child VALUES (1, 99)"));
        }
        assertThat(SqlFailure.vendorCode(noParent)).isEqualTo(1452);
        calls.set(0);
        assertThat(retries.retrying("decide", false, () -> failFirst(calls, 5, noParent))).isEqualTo("done");
        assertThat(calls).as("past the policy's three attempts: bounded by time").hasValue(6);
        calls.set(0);
        began = System.nanoTime();
        assertThatThrownBy(() -> retries.retrying("decide", false, () -> failFirst(calls, 1_000, noParent))).hasCauseReference(noParent);
        assertThat(Duration.ofNanos(System.nanoTime() - began)).isBetween(TransientErrors.SCHEMA_CHANGE_FOR,
                TransientErrors.SCHEMA_CHANGE_FOR.plusSeconds(2));
        assertThat(SqlFailure.of(noParent)).as("told as what it says").isEqualTo(SqlFailure.VALUE_REFUSED);

        TransientErrors noReconnect = new TransientErrors(new RetryPolicy(3, Duration.ofMillis(1), Duration.ofMillis(2)));
        calls.set(0);
        assertThatThrownBy(() -> noReconnect.retrying("claim", true, () -> failFirst(calls, 1, lost))).hasCauseReference(lost);
    }

    private static String failFirst(AtomicInteger calls, int failures, Exception failure) {
        if (calls.incrementAndGet() <= failures) {
            throw failure instanceof RuntimeException r ? r : new org.jooq.exception.DataAccessException("wrapped", failure);
        }
        return "done";
    }

    // --- provoking the failures on the real server ---------------------------------------------

    private interface SqlAction {
        void run() throws Exception;
    }

    private static Exception failure(SqlAction action) {
        try {
            action.run();
        } catch (Exception e) {
            return e;
        }
        throw new AssertionError("the server accepted what it should have refused");
    }

    /** Two sessions take rows 1 and 2, then each asks for the other's: the server ends one. */
    private Exception deadlock(boolean plainJdbc) throws Exception {
        try (Connection a = connect(); Connection b = connect()) {
            a.setAutoCommit(false);
            b.setAutoCommit(false);
            try (Statement sa = a.createStatement(); Statement sb = b.createStatement()) {
                sa.execute("UPDATE sql_failure_probe SET v = v + 1 WHERE id = 1");
                sb.execute("UPDATE sql_failure_probe SET v = v + 1 WHERE id = 2");
                CompletableFuture<Exception> first = CompletableFuture.supplyAsync(() -> failureOrNull(
                        () -> sa.execute("UPDATE sql_failure_probe SET v = v + 1 WHERE id = 2")));
                Thread.sleep(300);
                Exception second = plainJdbc
                        ? failureOrNull(() -> sb.execute("UPDATE sql_failure_probe SET v = v + 1 WHERE id = 1"))
                        : failureOrNull(() -> DSL.using(b, SQLDialect.MYSQL)
                                .execute("UPDATE sql_failure_probe SET v = v + 1 WHERE id = 1"));
                Exception firstFailure = first.get(20, TimeUnit.SECONDS);
                a.rollback();
                b.rollback();
                Exception found = second != null ? second : firstFailure;
                assertThat(found).as("one of the two was chosen as the deadlock victim").isNotNull();
                return found;
            }
        }
    }

    private Exception lockWaitTimeout() throws Exception {
        try (Connection a = connect(); Connection b = connect()) {
            a.setAutoCommit(false);
            try (Statement sa = a.createStatement(); Statement sb = b.createStatement()) {
                sa.execute("UPDATE sql_failure_probe SET v = v + 1 WHERE id = 1");
                sb.execute("SET SESSION innodb_lock_wait_timeout = 1");
                Exception e = failure(() -> sb.execute("UPDATE sql_failure_probe SET v = v + 1 WHERE id = 1"));
                a.rollback();
                return e;
            }
        }
    }

    /** [the failure of the statement the kill ended, the failure of the next statement on that connection]. */
    private Exception[] killedConnection() throws Exception {
        try (Connection victim = connect(); Connection root = connect()) {
            long id;
            try (Statement s = victim.createStatement(); var rs = s.executeQuery("SELECT CONNECTION_ID()")) {
                rs.next();
                id = rs.getLong(1);
            }
            CompletableFuture<Exception> underKill = CompletableFuture.supplyAsync(() -> failureOrNull(() -> {
                try (Statement s = victim.createStatement()) {
                    s.executeQuery("SELECT SLEEP(20)").close();
                }
            }));
            Thread.sleep(500);
            try (Statement s = root.createStatement()) {
                s.execute("KILL CONNECTION " + id);
            }
            Exception first = underKill.get(20, TimeUnit.SECONDS);
            Exception next = failure(() -> {
                try (Statement s = victim.createStatement()) {
                    s.executeQuery("SELECT 1").close();
                }
            });
            assertThat(first).as("the killed statement failed").isNotNull();
            return new Exception[] {first, next};
        }
    }

    private static Exception failureOrNull(SqlAction action) {
        try {
            action.run();
            return null;
        } catch (Exception e) {
            return e;
        }
    }
}
