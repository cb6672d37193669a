package org.copydesk.review;

import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.LEASE_EVENT;
import static org.copydesk.db.schema.Tables.SWEEP_TURN;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.copydesk.lease.ServerClock;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.TestDatabase;
import org.copydesk.testing.XaTestsOneAtATime;
import org.jooq.DSLContext;
import org.jooq.Record;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The newsroom's sweep turn ({@code take_sweep_turn}): many clients' release services over one
 * database sweep about once per interval between them, not once each, and still free a lapsed
 * lease within about one interval of its expiry; an editor who takes the turn in a loop from a raw
 * session of their own account (asking for the longest interval, with the session's clock moved
 * to 2037 (the latest MySQL 8 takes)) cannot stop leases being freed, because taking the turn is sweeping.
 */
@ExtendWith(DatabaseExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SweepTurnTest {

    private static final Logger log = LoggerFactory.getLogger(SweepTurnTest.class);
    private static final String HOLDER = "st_holder";
    private static final String MALLORY = "st_mallory";
    private static final String PASSWORD = "sweep-turn-1";
    private static final int CLIENTS = 20;
    /** The operating system's share: a thread that is due may wait this long for a core on a loaded machine. */
    private static final Duration SCHEDULING_SLACK = Duration.ofMillis(700);

    private final TestDatabase db;
    /** Other classes' XA tests on a shared server wait for this one's (see XaTestsOneAtATime). */
    private XaTestsOneAtATime xaTests;
    private final DSLContext root;
    private final Attacks attacks;

    SweepTurnTest(TestDatabase db) {
        this.db = db;
        this.root = db.dsl();
        this.attacks = new Attacks(db);
    }

    @BeforeAll
    void accounts() {
        xaTests = XaTestsOneAtATime.take(db.endpoint());
        Fixtures.holderAndAttacker(root, HOLDER, MALLORY, PASSWORD);
    }

    @AfterAll
    void dropAccounts() {
        try {
            attacks.log(log, "an editor taking the sweep turn in a loop");
            new AccountAdministration(root).dropAccount(MALLORY);
        } finally {
            XaTestsOneAtATime.release(xaTests);
        }
    }

    @BeforeEach
    void articles() {
        Fixtures.clear(root);
        Fixtures.articles(root, "news", 10, 3, -60);
        root.update(SWEEP_TURN).set(SWEEP_TURN.LONGEST_INTERVAL_MS, 5000).execute();
    }

    @Test
    void twentyClientsSweepAboutOncePerIntervalBetweenThemAndStillFreeALapsedLeaseInTime() throws Exception {
        Duration interval = Duration.ofMillis(500);
        Duration running = Duration.ofSeconds(6);
        ReviewSession session = new ReviewSession(db.database(), new ReviewSession.Options(null, interval));
        session.queue().claim(HOLDER);
        Record before = turnCounters();
        SweepClients.runWhileLeasesLapse(session, root, HOLDER, CLIENTS, running);
        Record after = turnCounters();
        long turns = after.get(SWEEP_TURN.TURNS_TAKEN) - before.get(SWEEP_TURN.TURNS_TAKEN);
        long sessionSweeps = after.get(SWEEP_TURN.SESSIONS_SWEPT) - before.get(SWEEP_TURN.SESSIONS_SWEPT);
        long intervals = running.toMillis() / interval.toMillis();
        log.info("{} clients, {} intervals of {} ms: {} turns taken, {} stuck-session sweeps ({} would have swept each before)",
                CLIENTS, intervals, interval.toMillis(), turns, sessionSweeps, CLIENTS * intervals);
        // a turn is due again three quarters of an interval after it was taken: at most 4 per 3 intervals
        assertThat(turns).as("turns taken by %s clients in %s intervals", CLIENTS, intervals)
                .isBetween(intervals / 2, intervals * 4 / 3 + 2);
        assertThat(sessionSweeps).as("stuck-session sweeps").isBetween(intervals / 2, turns);
        assertThat(root.fetchCount(ARTICLE, ARTICLE.LOCKED_BY.eq(HOLDER))).as("the holder's lapsed leases, freed").isZero();
        SweepClients.assertFreedWithin(root, HOLDER, interval.plus(SCHEDULING_SLACK));
    }

    @Test
    void anEditorTakingTheTurnInALoopCannotStopLeasesBeingFreed() throws Exception {
        Duration interval = Duration.ofSeconds(1);
        // the newsroom's longest interval, set by the owner: no caller may push the next sweep further off
        root.update(SWEEP_TURN).set(SWEEP_TURN.LONGEST_INTERVAL_MS, (int) interval.toMillis()).execute();
        ReviewSession session = new ReviewSession(db.database(), new ReviewSession.Options(null, interval));
        session.queue().claim(HOLDER);

        AtomicBoolean attacking = new AtomicBoolean(true);
        AtomicInteger turnsCalled = new AtomicInteger();
        Thread mallory = new Thread(() -> {
            try (Connection c = attacks.session(MALLORY, PASSWORD); Statement s = c.createStatement()) {
                // the session's clock far ahead, and the longest interval there is: neither moves the turn
                Attacks.runs(s, "SET @@timestamp = UNIX_TIMESTAMP('2037-12-31 00:00:00')");
                while (attacking.get()) {
                    Attacks.runs(s, "CALL take_sweep_turn(2147483647)");
                    turnsCalled.incrementAndGet();
                }
            } catch (SQLException e) {
                throw new IllegalStateException(e.getMessage(), e);
            }
        }, "mallory-takes-the-turn");
        try (ReleaseService honest = session.releaseService(released -> { })) {
            mallory.start();
            honest.start();
            // the holder's leases lapse one after another, 400 ms apart, from a second from now
            List<Long> held = root.select(ARTICLE.ID).from(ARTICLE).where(ARTICLE.LOCKED_BY.eq(HOLDER)).orderBy(ARTICLE.ID)
                    .fetch(ARTICLE.ID);
            for (int i = 0; i < held.size(); i++) {
                root.update(ARTICLE).set(ARTICLE.EXPIRES_AT, ServerClock.nowPlus(Duration.ofMillis(1000 + 400L * i)))
                        .where(ARTICLE.ID.eq(held.get(i))).execute();
            }
            long until = System.nanoTime() + Duration.ofSeconds(15).toNanos();
            while (root.fetchCount(ARTICLE, ARTICLE.LOCKED_BY.eq(HOLDER)) > 0 && System.nanoTime() < until) {
                Thread.sleep(100);
            }
        } finally {
            attacking.set(false);
            mallory.join();
        }
        log.info("mallory called take_sweep_turn {} times; {} of the holder's leases freed by mallory's calls", turnsCalled.get(),
                root.fetchCount(LEASE_EVENT, LEASE_EVENT.ACTION.eq("expire").and(LEASE_EVENT.ACTOR.eq(MALLORY))));
        assertThat(turnsCalled.get()).as("mallory's calls").isGreaterThan(10);
        assertThat(root.fetchCount(ARTICLE, ARTICLE.LOCKED_BY.eq(HOLDER))).as("the holder's lapsed leases, freed").isZero();
        SweepClients.assertFreedWithin(root, HOLDER, interval.plus(SCHEDULING_SLACK));
        LocalDateTime dueAt = root.select(SWEEP_TURN.DUE_AT).from(SWEEP_TURN).fetchOne(SWEEP_TURN.DUE_AT);
        LocalDateTime serverNow = root.select(ServerClock.now()).fetchOne().value1();
        assertThat(dueAt).as("the next sweep is due within the longest interval, whatever mallory's clock and ask")
                .isBeforeOrEqualTo(serverNow.plus(interval));
        attacks.noEffect("CALL take_sweep_turn(2147483647) x" + turnsCalled.get() + " with @@timestamp in 2037",
                "every lapsed lease freed within the interval; next sweep due " + dueAt);
    }

    @Test
    void aCallWhoseTurnItIsNotLeavesNoWarningForTheDriverToAskAbout() throws Exception {
        // every idle client makes this call every interval: a warning would cost each a SHOW WARNINGS more
        try (Connection c = attacks.session(MALLORY, PASSWORD); Statement s = c.createStatement()) {
            Attacks.runs(s, "CALL take_sweep_turn(5000)");
            String taken = Attacks.runs(s, "CALL take_sweep_turn(5000)");
            assertThat(taken).as("the second call, at once after the first").isEqualTo("0");
            assertThat(Attacks.runs(s, "SELECT @@warning_count")).isEqualTo("0");
        }
    }

    @Test
    void anEditorCannotMoveTheTurnByHand() {
        Record before = root.selectFrom(SWEEP_TURN).fetchOne();
        for (String attack : List.of("UPDATE sweep_turn SET due_at = '2100-01-01 00:00:00'",
                "INSERT INTO sweep_turn (id, due_at, sessions_due_at, longest_interval_ms, turns_taken, sessions_swept)"
                        + " VALUES (2, '2100-01-01', '2100-01-01', 60000, 0, 0)",
                "DELETE FROM sweep_turn")) {
            attacks.refused(attack, () -> attacks.runs(MALLORY, PASSWORD, attack));
        }
        assertThat(root.selectFrom(SWEEP_TURN).fetchOne()).isEqualTo(before);
    }

    @Test
    void anAbandonedXaTransactionIsRolledBackWhicheverClientSweeps() throws Exception {
        root.execute("update session_limit set xa_seconds = 1");
        try {
            try (Connection c = attacks.session(MALLORY, PASSWORD); Statement s = c.createStatement()) {
                Attacks.runs(s, "XA START X'5e01',X'02',9", "SELECT COUNT(*) FROM lease_event", "XA END X'5e01',X'02',9",
                        "XA PREPARE X'5e01',X'02',9");
            }
            // two clients' sweeps, one after the other, as the turn moves between clients: neither sees it twice
            SessionSweep firstClient = new SessionSweep(root);
            SessionSweep secondClient = new SessionSweep(root);
            assertThat(firstClient.runOnce().xaRolledBack()).as("seen for the first time").isZero();
            assertThat(root.fetch("select xid from prepared_xa").getValues(0, String.class)).as("noted").contains("9:5e01:02");
            // an editor noting nothing, or other ids, in a loop does not restart its time
            for (int i = 0; i < 20; i++) {
                attacks.runs(MALLORY, PASSWORD, "CALL note_prepared_xa('[]')", "CALL note_prepared_xa('[\"1:00:00\"]')");
            }
            attacks.refused("CALL note_prepared_xa with an id that is not hex",
                    () -> attacks.runs(MALLORY, PASSWORD, "CALL note_prepared_xa('[\"1:zz'')--:00\"]')"));
            Thread.sleep(1_200);
            assertThat(preparedXaTransactions(9)).as("still prepared").isEqualTo(1);
            secondClient.runOnce();
            assertThat(preparedXaTransactions(9)).as("rolled back by a client that had not seen it before").isZero();
            attacks.noEffect("CALL note_prepared_xa('[]') x20 while an XA transaction stays prepared",
                    "rolled back by the next client's sweep once listed for xa_seconds");
        } finally {
            root.execute("update session_limit set xa_seconds = 30");
            root.execute("delete from prepared_xa");
        }
    }

    @Test
    void anEditorWhoTakesEveryTurnCannotKeepHonestClientsFromRollingBackTheXaTransactionItAbandoned() throws Exception {
        Duration interval = Duration.ofMillis(500);
        int xaSeconds = 2;
        root.execute("update session_limit set xa_seconds = ?", xaSeconds);
        ReviewSession session = new ReviewSession(db.database(), new ReviewSession.Options(null, interval));
        String lockingRead = db.database().capabilities().mariaDb() ? "FOR UPDATE" : "LOCK IN SHARE MODE";
        var articlesBefore = root.selectFrom(ARTICLE).orderBy(ARTICLE.ID).fetch();
        AtomicBoolean attacking = new AtomicBoolean(true);
        AtomicInteger turnsCalled = new AtomicInteger();
        AtomicInteger turnsTaken = new AtomicInteger();
        Thread mallory = new Thread(() -> {
            try (Connection c = attacks.session(MALLORY, PASSWORD); Statement s = c.createStatement()) {
                Attacks.runs(s, "SET @@timestamp = UNIX_TIMESTAMP('2037-12-31 00:00:00')");
                while (attacking.get()) {
                    // every turn there is, and notes of nothing and of other ids in between
                    if ("1".equals(Attacks.runs(s, "CALL take_sweep_turn(2147483647)"))) {
                        turnsTaken.incrementAndGet();
                    }
                    Attacks.runs(s, "CALL note_prepared_xa('[]')", "CALL note_prepared_xa('[\"1:00:00\"]')");
                    turnsCalled.incrementAndGet();
                }
            } catch (SQLException e) {
                throw new IllegalStateException(e.getMessage(), e);
            }
        }, "mallory-takes-every-turn");
        ReleaseService honest = session.releaseService(released -> { });
        long prepared;
        Duration rolledBackAfter;
        String turnHolderAtRollback;
        // the turn is due now, so mallory takes it before the honest client starts; the next one is due
        // 3/4 of the house interval (5 s) later, after the rollback this test waits for
        root.execute("update sweep_turn set due_at = '1970-01-01 00:00:00'");
        try {
            // mallory takes the turns first, so the honest client never gets one
            mallory.start();
            while (turnsCalled.get() < 5 && mallory.isAlive()) {
                Thread.sleep(10);
            }
            assertThat(mallory.isAlive()).as("mallory takes the turns").isTrue();
            try (Connection c = attacks.session(MALLORY, PASSWORD); Statement s = c.createStatement()) {
                Attacks.runs(s, "XA START X'ba0d',X'01',5", "SELECT id FROM article WHERE desk_id = 'news' " + lockingRead,
                        "XA END X'ba0d',X'01',5", "XA PREPARE X'ba0d',X'01',5");
            }
            prepared = System.nanoTime();
            assertThat(preparedXaTransactions(5)).as("prepared and abandoned").isEqualTo(1);
            honest.start();
            long until = prepared + Duration.ofSeconds(xaSeconds + 15).toNanos();
            while (preparedXaTransactions(5) > 0 && System.nanoTime() < until) {
                Thread.sleep(50);
            }
            rolledBackAfter = Duration.ofNanos(System.nanoTime() - prepared);
            turnHolderAtRollback = root.select(SWEEP_TURN.TAKEN_BY).from(SWEEP_TURN).fetchOne(SWEEP_TURN.TAKEN_BY);
        } finally {
            honest.close();
            attacking.set(false);
            mallory.join();
            root.execute("update session_limit set xa_seconds = 30");
            root.execute("delete from prepared_xa");
        }
        log.info("mallory called take_sweep_turn {} times and took {} turns;"
                + " rolled back {} ms after it was prepared", turnsCalled.get(), turnsTaken.get(), rolledBackAfter.toMillis());
        assertThat(turnsCalled.get()).as("mallory's calls").isGreaterThan(10);
        assertThat(turnsTaken.get()).as("turns mallory took").isPositive();
        assertThat(preparedXaTransactions(5)).as("mallory's abandoned XA transaction, rolled back by the honest client").isZero();
        assertThat(turnHolderAtRollback).as("who had taken the last turn when the XA transaction was rolled back").isEqualTo(MALLORY);
        // listed at the honest client's first tick (within an interval), due xa_seconds later, rolled back at the tick after
        assertThat(rolledBackAfter).as("from XA PREPARE to its rollback")
                .isLessThanOrEqualTo(Duration.ofSeconds(xaSeconds).plus(interval.multipliedBy(2)).plus(SCHEDULING_SLACK));
        assertThat(root.selectFrom(ARTICLE).orderBy(ARTICLE.ID).fetch()).as("the articles, untouched by the attack")
                .isEqualTo(articlesBefore);
        assertThat(session.queue().claim(HOLDER).articles()).as("a claim afterwards").hasSize(5);
        // what the XA transaction held to the end (on MySQL, the metadata lock a schema change waits for) is gone
        root.execute("set session lock_wait_timeout = 5");
        root.execute("alter table lease_event comment = 'checked by SweepTurnTest'");
        root.execute("alter table lease_event comment = ''");
        attacks.noEffect("XA START; SELECT … " + lockingRead + " of the desk; XA END; XA PREPARE; disconnect; and CALL take_sweep_turn"
                        + " x" + turnsCalled.get() + " (" + turnsTaken.get() + " turns taken) with note_prepared_xa of nothing",
                "rolled back by an honest client that never had the turn, " + rolledBackAfter.toMillis() + " ms after XA PREPARE"
                        + " (xa_seconds " + xaSeconds + ", interval " + interval.toMillis() + " ms); a claim and ALTER TABLE work");
    }

    /**
     * This test's prepared XA transactions, by the format id it gave them: XA RECOVER lists the whole
     * server's, and on a server the suite shares other classes abandon theirs (LockHoldingSecurityTest: 7).
     */
    private int preparedXaTransactions(int formatId) {
        int[] count = {0};
        root.connection(c -> {
            try (Statement s = c.createStatement(); java.sql.ResultSet rs = s.executeQuery("XA RECOVER")) {
                while (rs.next()) {
                    count[0] += rs.getInt(1) == formatId ? 1 : 0;
                }
            }
        });
        return count[0];
    }

    private Record turnCounters() {
        return root.select(SWEEP_TURN.TURNS_TAKEN, SWEEP_TURN.SESSIONS_SWEPT).from(SWEEP_TURN).fetchOne();
    }
}
