package org.copydesk.review;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.SWEEP_CALLER;
import static org.copydesk.db.schema.Tables.SWEEP_TURN;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.List;
import org.copydesk.db.DataSources;
import org.copydesk.db.Database;
import org.copydesk.lease.ServerClock;
import org.copydesk.testing.Await;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.TcpProxy;
import org.copydesk.testing.TestDatabase;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sweep turn's pacing: {@code take_sweep_turn} counts the accounts that call it and asks each
 * caller to wait, before its next call, one interval per twenty of them (at least one interval, at
 * most twelve), so that a large newsroom calls about twenty times per interval between its clients;
 * the release service follows the answer. An editor calling in a loop from a raw session counts
 * once, and cannot write the callers' table; a newsroom whose clients are paced still sweeps about
 * every interval and frees a lapsed lease in time.
 */
@ExtendWith(DatabaseExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SweepPacingTest {

    private static final Logger log = LoggerFactory.getLogger(SweepPacingTest.class);
    private static final String HOLDER = "sp_holder";
    private static final String MALLORY = "sp_mallory";
    private static final String PASSWORD = "sweep-pacing-1";
    private static final Duration SCHEDULING_SLACK = Duration.ofMillis(700);

    private final TestDatabase db;
    private final DSLContext root;
    private final Attacks attacks;
    private int othersNoted;

    SweepPacingTest(TestDatabase db) {
        this.db = db;
        this.root = db.dsl();
        this.attacks = new Attacks(db);
    }

    @BeforeAll
    void accounts() {
        Fixtures.holderAndAttacker(root, HOLDER, MALLORY, PASSWORD);
    }

    @AfterAll
    void dropAccounts() {
        attacks.log(log, "an editor calling the sweep turn in a loop");
        new AccountAdministration(root).dropAccount(MALLORY);
    }

    @BeforeEach
    void articles() {
        Fixtures.clear(root);
        Fixtures.articles(root, "news", 10, 3, -60);
        root.deleteFrom(SWEEP_CALLER).execute();
        root.update(SWEEP_TURN).set(SWEEP_TURN.LONGEST_INTERVAL_MS, 5000).set(SWEEP_TURN.CALLERS, 0)
                .set(SWEEP_TURN.DUE_AT, LocalDateTime.of(1970, 1, 1, 0, 0)).execute();
    }

    @Test
    void aFewClientsCallEveryInterval() {
        ReleaseService client = service(Duration.ofSeconds(2));
        client.runTurn();
        client.runTurn();
        assertThat(client.nextCallAfter()).isEqualTo(Duration.ofSeconds(2));
        assertThat(root.fetchOne(SWEEP_TURN).getCallers()).as("callers counted by the turn's taker").isEqualTo(1);
    }

    @Test
    void aNewsroomOfTwoHundredCallersAsksEachToCallTenTimesLessOftenAndAThousandTwelve() {
        ReleaseService client = service(Duration.ofSeconds(2));
        otherCallers(199, Duration.ZERO);
        assertThat(turnNow(client).nextCallAfter()).as("the taker's own call: counted before it").isEqualTo(Duration.ofSeconds(2));
        assertThat(root.fetchOne(SWEEP_TURN).getCallers()).isEqualTo(200);
        SweepTurn paced = procedures().takeSweepTurn(Duration.ofSeconds(2));
        assertThat(paced.nextCallAfter()).as("200 callers: one interval per 20").isEqualTo(Duration.ofSeconds(20));
        client.runTurn();
        assertThat(client.nextCallAfter()).as("the service's pause: half to one and a half times what was asked")
                .isBetween(Duration.ofSeconds(10), Duration.ofSeconds(30));

        otherCallers(800, Duration.ZERO);
        turnNow(client);
        assertThat(procedures().takeSweepTurn(Duration.ofSeconds(2)).nextCallAfter()).as("at most twelve intervals")
                .isEqualTo(Duration.ofSeconds(24));
    }

    @Test
    void whatTheLastAnswerAskedStaysReadableWhileTheNextCallWaits() throws Exception {
        ReleaseService client = service(Duration.ofSeconds(2));
        otherCallers(199, Duration.ZERO);
        turnNow(client);
        client.runTurn();
        Duration asked = client.nextCallAfter();
        assertThat(asked).as("200 callers: paced").isBetween(Duration.ofSeconds(10), Duration.ofSeconds(30));
        try (Connection holder = db.database().dataSource().getConnection(); Statement s = holder.createStatement()) {
            holder.setAutoCommit(false);
            s.execute("SELECT * FROM sweep_caller FOR UPDATE"); // the next call's note of its caller waits behind this
            client.start(); // its first call within one interval
            try {
                Await.waitFor(4, () -> waitingCalls() > 0);
                assertThat(waitingCalls()).as("the client's call, waiting").isEqualTo(1);
                assertThat(client.nextCallAfter()).as("read while the call waits").isEqualTo(asked);
                client.close();
                assertThat(client.nextCallAfter()).as("read once the service is closing").isEqualTo(asked);
            } finally {
                holder.rollback();
                client.close();
            }
        }
    }

    @Test
    void aCallThatGetsNoAnswerIsTriedAgainAfterOneIntervalAndTheNextAnswerPacesAgain() throws Exception {
        otherCallers(199, Duration.ZERO);
        try (TcpProxy proxy = new TcpProxy("127.0.0.1", db.endpoint().port());
             Database viaProxy = Database.open(db.endpoint().accountUrl("127.0.0.1", proxy.port(), db.name()),
                     db.endpoint().user(), db.endpoint().password().toCharArray(), null, DataSources.PoolSize.of(2),
                     Database.SchemaAction.NONE, null)) {
            // no reconnecting retries: the call fails after one pool timeout
            ReleaseService client = new ReviewSession(viaProxy, new ReviewSession.Options(null, Duration.ofSeconds(2),
                    Duration.ZERO)).releaseService(released -> { });
            turnNow(client);
            client.runTurn();
            assertThat(client.nextCallAfter()).as("200 callers: paced").isGreaterThanOrEqualTo(Duration.ofSeconds(10));
            proxy.cut();
            assertThatThrownBy(client::runTurn).as("the network cut").isInstanceOf(RuntimeException.class);
            assertThat(client.nextCallAfter()).as("no answer: one interval").isEqualTo(Duration.ofSeconds(2));
            proxy.restore();
            // the pool may lend a connection the cut ended once more (it checks those unused for 0.5 s):
            // that call fails as the first did, and the next one gets an answer
            for (int attempt = 1; attempt <= 3 && client.nextCallAfter().equals(Duration.ofSeconds(2)); attempt++) {
                try {
                    client.runTurn();
                } catch (RuntimeException stillCut) {
                    assertThat(client.nextCallAfter()).as("no answer again").isEqualTo(Duration.ofSeconds(2));
                }
            }
            assertThat(client.nextCallAfter()).as("answered again: paced").isGreaterThanOrEqualTo(Duration.ofSeconds(10));
        }
    }

    @Test
    void callersNotSeenForTwentyFourLongestIntervalsAreNotCounted() {
        ReleaseService client = service(Duration.ofSeconds(2));
        otherCallers(300, Duration.ofSeconds(121));
        otherCallers(39, Duration.ofSeconds(100));
        turnNow(client);
        assertThat(root.fetchOne(SWEEP_TURN).getCallers()).as("the 39 seen 100 s ago and this client").isEqualTo(40);
        assertThat(root.fetchCount(SWEEP_CALLER)).as("rows older than 120 s dropped").isEqualTo(40);
        assertThat(procedures().takeSweepTurn(Duration.ofSeconds(2)).nextCallAfter()).isEqualTo(Duration.ofSeconds(4));
    }

    @Test
    void anEditorCallingInALoopCountsOnceAndCannotWriteTheCallers() throws Exception {
        try (Connection c = attacks.session(MALLORY, PASSWORD); Statement s = c.createStatement()) {
            Attacks.runs(s, "SET @@timestamp = UNIX_TIMESTAMP('2037-12-31 00:00:00')");
            for (int i = 0; i < 50; i++) {
                Attacks.runs(s, "CALL take_sweep_turn(2147483647)");
            }
            attacks.refused("INSERT INTO sweep_caller", () -> sql(s, "INSERT INTO sweep_caller VALUES ('x1', NOW(6))"));
            attacks.refused("UPDATE sweep_caller", () -> sql(s, "UPDATE sweep_caller SET last_call_at = NOW(6)"));
            attacks.refused("UPDATE sweep_turn.callers", () -> sql(s, "UPDATE sweep_turn SET callers = 100000"));
        }
        turnNow(service(Duration.ofSeconds(2)));
        assertThat(root.fetchCount(SWEEP_CALLER)).as("mallory's 50 calls and the honest client's").isEqualTo(2);
        assertThat(root.fetchOne(SWEEP_TURN).getCallers()).isEqualTo(2);
        assertThat(root.select(SWEEP_CALLER.LAST_CALL_AT).from(SWEEP_CALLER).where(SWEEP_CALLER.ACCOUNT.eq(MALLORY))
                .fetchOne(SWEEP_CALLER.LAST_CALL_AT)).as("noted on the server's clock, not the session's")
                .isBefore(LocalDateTime.of(2037, 1, 1, 0, 0));
        attacks.noEffect("CALL take_sweep_turn(2147483647) x50 with @@timestamp in 2037",
                "counted as one caller of two; next_call_ms stays one interval");
    }

    @Test
    void pacedClientsStillSweepAboutEveryIntervalAndFreeALapsedLeaseInTime() throws Exception {
        Duration interval = Duration.ofMillis(500);
        Duration running = Duration.ofSeconds(6);
        // 100 other accounts called lately: each client is asked to call every 6 intervals (3 s), so
        // the 120 clients here call about 20 times per interval between them
        otherCallers(100, Duration.ZERO);
        ReviewSession session = new ReviewSession(db.database(), new ReviewSession.Options(null, interval));
        turnNow(session.releaseService(released -> { }));
        session.queue().claim(HOLDER);
        var before = root.fetchOne(SWEEP_TURN);
        List<ReleaseService> clients = SweepClients.runWhileLeasesLapse(session, root, HOLDER, 120, running);
        long turns = root.fetchOne(SWEEP_TURN).getTurnsTaken() - before.getTurnsTaken();
        long intervals = running.toMillis() / interval.toMillis();
        log.info("120 paced clients, {} intervals of {} ms: {} turns taken", intervals, interval.toMillis(), turns);
        assertThat(clients).as("every client was asked to wait 6 intervals, and waits half to one and a half of that")
                .allSatisfy(c -> assertThat(c.nextCallAfter()).isBetween(Duration.ofMillis(1500), Duration.ofMillis(4500)));
        assertThat(turns).as("turns taken in %s intervals", intervals).isBetween(intervals / 2, intervals * 4 / 3 + 2);
        assertThat(root.fetchCount(ARTICLE, ARTICLE.LOCKED_BY.eq(HOLDER))).as("the holder's lapsed leases, freed").isZero();
        assertThat(SweepClients.assertFreedWithin(root, HOLDER, interval.plus(SCHEDULING_SLACK))).as("expiries recorded").isEqualTo(5);
    }

    /** This test database's sessions noting their caller in a sweep-turn call (waiting, while the table is held). */
    private int waitingCalls() {
        // the process list, not InnoDB's list of transactions: MySQL 8.0 may not list a wait inside a routine there
        return root.fetchSingle("select count(*) from information_schema.processlist where db = database()"
                + " and command = 'Query' and info like 'INSERT INTO sweep_caller%'").into(Integer.class);
    }

    private ReviewProcedures procedures() {
        return new ReviewProcedures(DatabaseOperations.withDefaultRetries(root), null);
    }

    private ReleaseService service(Duration interval) {
        return new ReviewSession(db.database(), new ReviewSession.Options(null, interval)).releaseService(released -> { });
    }

    /** Makes the turn due and has {@code client} take it (and so count the callers). */
    private ReleaseService turnNow(ReleaseService client) {
        root.update(SWEEP_TURN).set(SWEEP_TURN.DUE_AT, LocalDateTime.of(1970, 1, 1, 0, 0)).execute();
        client.runTurn();
        assertThat(root.fetchOne(SWEEP_TURN).getTakenAt()).as("the turn, taken just now").isNotNull();
        return client;
    }

    /** {@code count} other accounts that called {@code ago}, on the server's clock. */
    private void otherCallers(int count, Duration ago) {
        var when = ServerClock.nowPlus(ago.negated());
        for (int i = 0; i < count; i++) {
            root.insertInto(SWEEP_CALLER, SWEEP_CALLER.ACCOUNT, SWEEP_CALLER.LAST_CALL_AT)
                    .select(root.select(DSL.val("other-" + (othersNoted++)), when)).execute();
        }
    }

    private static void sql(Statement s, String statement) {
        try {
            s.execute(statement);
        } catch (SQLException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }
}
