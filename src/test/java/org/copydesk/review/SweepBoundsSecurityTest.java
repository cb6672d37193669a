package org.copydesk.review;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.copydesk.db.DataSources;
import org.copydesk.db.Database;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.TestDatabase;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sweep acts on the newsroom's own accounts only, whatever rows an admin writes, and what one
 * editor's sessions can take from the whole server is bounded: memory per session (the sweep ends a
 * session above {@code session_limit.memory_bytes} and suspends its account), and the server-wide
 * count of prepared statements (an account statement that finds them all taken ends the newsroom
 * session holding the most, and goes on).
 */
@ExtendWith(DatabaseExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SweepBoundsSecurityTest {

    private static final Logger log = LoggerFactory.getLogger(SweepBoundsSecurityTest.class);
    private static final String ANN = "sb_ann";
    private static final String BOB = "sb_bob";
    private static final String ADM = "sb_adm";
    private static final String MAL = "sb_mal";
    private static final String NEWCOMER = "sb_new";
    /** Another application's account on the same server, with rights on its own database only. */
    private static final String OTHER_APP = "sb_otherapp";
    private static final String PASSWORD = "sweep-bounds-1";
    private static final long MIB = 1L << 20;

    private final TestDatabase db;
    private final DSLContext root;
    private final Attacks attacks;
    private final String otherDatabase;
    private Database bobDb;
    private SessionSweep sweepFromBobsClient;

    SweepBoundsSecurityTest(TestDatabase db) {
        this.db = db;
        this.root = db.dsl();
        this.attacks = new Attacks(db);
        this.otherDatabase = db.name() + "_other";
    }

    @BeforeAll
    void accounts() {
        Newsroom n = new Newsroom(root);
        n.addDesk("news", "News", Duration.ofMinutes(30));
        n.addEditor(ANN, "Ann", Role.EDITOR, 3, List.of("news"));
        n.addEditor(BOB, "Bob", Role.EDITOR, 5, List.of("news"));
        n.addEditor(ADM, "Adam", Role.ADMIN, 0, List.of());
        n.addEditor(MAL, "Mallory", Role.EDITOR, 3, List.of("news"));
        AccountAdministration accounts = new AccountAdministration(root);
        for (String person : List.of(ANN, BOB, ADM, MAL)) {
            accounts.createAccount(person, PASSWORD.toCharArray());
        }
        db.endpoint().execute("CREATE DATABASE IF NOT EXISTS `" + otherDatabase + "`");
        db.endpoint().execute("CREATE TABLE IF NOT EXISTS `" + otherDatabase + "`.ledger (id INT PRIMARY KEY, amount INT)");
        db.endpoint().execute("INSERT IGNORE INTO `" + otherDatabase + "`.ledger VALUES (1, 10), (2, 20)");
        db.endpoint().execute("CREATE USER IF NOT EXISTS '" + OTHER_APP + "'@'%' IDENTIFIED BY '" + PASSWORD + "'");
        db.endpoint().execute("GRANT SELECT, INSERT, UPDATE, DELETE ON `" + otherDatabase + "`.* TO '" + OTHER_APP + "'@'%'");
        bobDb = Database.open(attacks.url(), BOB, PASSWORD.toCharArray(), null, DataSources.PoolSize.of(2),
                Database.SchemaAction.MIGRATE_OR_VALIDATE, null);
        sweepFromBobsClient = new SessionSweep(bobDb.dsl());
    }

    @AfterAll
    void close() {
        attacks.log(log, "an admin and an editor against the server");
        bobDb.close();
        AccountAdministration accounts = new AccountAdministration(root);
        List.of(ANN, BOB, ADM, MAL).forEach(accounts::dropAccount);
        db.endpoint().execute("DROP USER IF EXISTS '" + OTHER_APP + "'@'%'");
        db.endpoint().execute("DROP DATABASE IF EXISTS `" + otherDatabase + "`");
    }

    @BeforeEach
    void limits() {
        Fixtures.clear(root);
        Fixtures.articles(root, "news", 6, 3, -60);
        root.execute("update session_limit set lock_seconds = 1, idle_seconds = 30, statement_seconds = 30, suspend_seconds = 600,"
                + " memory_bytes = ?", 16 * MIB);
    }

    @AfterEach
    void lift() {
        for (String person : List.of(ANN, MAL)) {
            root.execute("call lift_suspension(?)", person);
        }
    }

    // --- the sweep acts on the newsroom's accounts only ----------------------------------------

    @Test
    void theSweepLeavesAccountsCopydeskDidNotMakeAloneWhateverRowsAnAdminWrites() throws Exception {
        String owner = db.endpoint().user();
        Set<String> strangers = new LinkedHashSet<>(List.of(OTHER_APP, owner, "root"));
        for (String name : strangers) {
            attacks.runs(ADM, PASSWORD, "INSERT IGNORE INTO editor (id, display_name, role, capacity)"
                    + " VALUES ('" + name + "', 'Not a person', 'editor', 1)");
        }
        try (Connection other = otherAppSession(); Statement o = other.createStatement();
             Connection ownerSession = db.endpoint().adminConnection(); Statement w = ownerSession.createStatement();
             Connection ann = attacks.session(ANN, PASSWORD); Statement a = ann.createStatement()) {
            // another application's transaction in its own database, and the owner's (root's on the embedded server)
            Attacks.runs(o, "USE `" + otherDatabase + "`", "START TRANSACTION", "SELECT amount FROM ledger WHERE id = 1 FOR UPDATE");
            Attacks.runs(w, "START TRANSACTION", "SELECT amount FROM `" + otherDatabase + "`.ledger WHERE id = 2 FOR UPDATE");
            // control: a real editor doing the same in the newsroom's database is ended and suspended
            Attacks.runs(a, "START TRANSACTION", "SELECT COUNT(*) FROM article FORCE INDEX (PRIMARY) WHERE id > 0 LOCK IN SHARE MODE");
            whileSweeping(() -> awaitGone(a));
            assertThat(count("select count(*) from account_suspension where account = ?", ANN)).as("the editor is suspended").isEqualTo(1);
            for (int i = 0; i < 4; i++) {
                sweepFromBobsClient.runOnce();
                pause(300);
            }
            assertThat(Attacks.runs(o, "SELECT amount FROM ledger WHERE id = 1")).as("the other application's session goes on")
                    .isEqualTo("10");
            assertThat(Attacks.runs(w, "SELECT amount FROM `" + otherDatabase + "`.ledger WHERE id = 2"))
                    .as("the owner's session goes on").isEqualTo("20");
        }
        for (String name : strangers) {
            assertThat(count("select count(*) from account_suspension where account = ?", name)).as(name + " not suspended").isZero();
            String refusal = attacks.refused("the owner's suspend_account on " + name + ", named by an editor row",
                    () -> root.execute("call suspend_account(?, utc_timestamp(6) + interval 1 hour)", name));
            assertThat(refusal).contains("not an account of the newsroom");
        }
        try (Connection other = otherAppSession(); Statement o = other.createStatement()) {
            assertThat(Attacks.runs(o, "SELECT 1")).as("the other application still signs in").isEqualTo("1");
        }
        attacks.saw("editor rows for " + strangers + " written by an admin; their sessions held row locks for seconds -> untouched,"
                + " not suspended; an editor doing the same -> ended and suspended");
        attacks.runs(ADM, PASSWORD, "DELETE FROM editor WHERE display_name = 'Not a person'");
    }

    // --- memory per session ----------------------------------------------------------------------

    @Test
    void aSessionHoldingMuchMemoryIsEndedAndItsAccountSuspended() throws Exception {
        assumeThat(bobDb.capabilities().mariaDb()).as("MySQL lists no memory per session in its process list;"
                + " its bound is the server's connection_memory_limit (docs/security.md)").isTrue();
        long endedBefore = count("select count(*) from ended_session where account = ? and reason = 'too much memory'", MAL);
        try (Connection mal = attacks.session(MAL, PASSWORD); Statement s = mal.createStatement()) {
            long limit = count("select @@max_allowed_packet");
            int chunk = (int) Math.min(8 * MIB, limit - MIB);
            // any session may lift the server's own limit on MariaDB
            Attacks.runs(s, "SET SESSION max_session_mem_used = 9223372036854775807");
            for (int i = 1; i <= 4; i++) {
                Attacks.runs(s, "SET @v" + i + " = REPEAT('x', " + chunk + ")");
            }
            long used = root.fetchOne("select memory_used from information_schema.processlist where user = ?", MAL).get(0, Long.class);
            assertThat(used).as("control: the session holds what it set").isGreaterThan(4L * chunk);
            Duration took = whileSweeping(() -> awaitGone(s));
            attacks.saw("SET @v1..@v4 = REPEAT('x', " + chunk + "), " + used / MIB + " MiB held -> ended after " + took.toMillis()
                    + " ms (memory_bytes 16 MiB)");
        }
        assertThat(count("select count(*) from ended_session where account = ? and reason = 'too much memory'", MAL))
                .isEqualTo(endedBefore + 1);
        assertThat(attacks.refused("sign in again after holding memory", () -> attacks.runs(MAL, PASSWORD, "SELECT 1")))
                .containsAnyOf("locked", "Locked");
    }

    @Test
    void aSessionHoldingManyOpenTablesIsEndedAndItsAccountSuspended() throws Exception {
        assumeThat(bobDb.capabilities().mariaDb()).as("MySQL lists no memory per session in its process list;"
                + " open HANDLERs are a known limit there (docs/security.md)").isTrue();
        try (Connection mal = attacks.session(MAL, PASSWORD); Statement s = mal.createStatement()) {
            // HANDLER … OPEN needs only SELECT; each alias is one more open table, held until the session ends
            long endedBefore = count("select count(*) from ended_session where account = ? and reason = 'too much memory'", MAL);
            int opened = 0;
            while (memoryOf(MAL) <= 17 * MIB && opened < 20_000) {
                for (int i = 0; i < 200; i++) {
                    opened++;
                    s.execute("HANDLER article OPEN AS h" + opened);
                }
            }
            long used = memoryOf(MAL);
            assertThat(used).as("control: " + opened + " open handlers use the session's memory").isGreaterThan(16 * MIB);
            assertThat(Attacks.runs(s, "HANDLER h" + opened + " READ FIRST")).as("control: the last one is open").isNotNull();
            Duration took = whileSweeping(() -> awaitGone(s));
            attacks.saw(opened + " x HANDLER article OPEN AS hN, " + used / MIB + " MiB -> ended after " + took.toMillis()
                    + " ms (memory_bytes 16 MiB)");
            assertThat(count("select count(*) from ended_session where account = ? and reason = 'too much memory'", MAL))
                    .isEqualTo(endedBefore + 1);
        }
        assertThat(attacks.refused("sign in again after holding open tables", () -> attacks.runs(MAL, PASSWORD, "SELECT 1")))
                .containsAnyOf("locked", "Locked");
    }

    @Test
    void theEmbeddedServerBoundsASessionThatDoesNotLiftItsLimit() throws Exception {
        assumeThat(db.endpoint().kind()).as("the server options are Copydesk's own only on its embedded server").isEqualTo("embedded");
        assertThat(count("select @@global.max_session_mem_used")).isEqualTo(256 * MIB);
        try (Connection mal = attacks.session(MAL, PASSWORD); Statement s = mal.createStatement()) {
            Attacks.runs(s, "SET @v1 = REPEAT('x', 60000000)");
            assertThat(Attacks.runs(s, "SELECT LENGTH(@v1)")).as("control: a 60 MB variable").isEqualTo("60000000");
            // once the session uses more than the limit, the server refuses its next statement that allocates
            assertThatThrownBy(() -> {
                for (int i = 2; i <= 6; i++) {
                    Attacks.runs(s, "SET @v" + i + " = REPEAT('x', 60000000)");
                }
                // (a statement that allocates: the server checks the session's memory as it allocates)
                Attacks.runs(s, "SELECT memory_used FROM information_schema.processlist WHERE id = CONNECTION_ID()");
            }).as("SET @v2..@v6 = REPEAT('x', 60000000) without lifting max_session_mem_used").isInstanceOf(SQLException.class)
                    .hasMessageContaining("max-session-mem-used");
            attacks.saw("SET @v1..@v6 = REPEAT('x', 60000000) on the embedded server -> the next statement refused past 256 MiB");
        }
    }

    // --- the server-wide count of prepared statements --------------------------------------------

    @Test
    void anEditorHoldingEveryPreparedStatementDoesNotStopAccountAdministration() throws Exception {
        long before = count("select @@global.max_prepared_stmt_count");
        try (Connection mal = attacks.session(MAL, PASSWORD); Statement s = mal.createStatement();
             Connection ann = attacks.session(ANN, PASSWORD); Statement a = ann.createStatement()) {
            // a server of the test's size: the editor fills it with 400 where a real one takes 16,382 (3 s measured)
            db.endpoint().execute("SET GLOBAL max_prepared_stmt_count = " + (preparedNow() + 400));
            int held = fill(s, 0);
            assertThat(held).as("the editor fills the server's prepared statements").isPositive();
            assertThatThrownBy(() -> a.execute("PREPARE mine FROM 'SELECT 1'")).as("control: nobody else may prepare one")
                    .isInstanceOf(SQLException.class).hasMessageContaining("max_prepared_stmt_count");
            String person = newcomer();
            // other test JVMs on a shared server free statements too: take what they freed, right before
            held += fill(s, held);
            long started = System.nanoTime();
            new AccountAdministration(root).createAccount(person, PASSWORD.toCharArray());
            long tookMs = (System.nanoTime() - started) / 1_000_000;
            assertThat(attacks.runs(NEWCOMER, PASSWORD, "SELECT 1")).as("the account was created").isEqualTo("1");
            assertThatThrownBy(() -> s.executeQuery("SELECT 1")).as("the holder's session was ended").isInstanceOf(SQLException.class);
            a.execute("PREPARE mine FROM 'SELECT 1'");
            attacks.saw(held + " PREPAREs until 1461 -> create_account ended the holder and went on (" + tookMs + " ms)");
        } finally {
            db.endpoint().execute("SET GLOBAL max_prepared_stmt_count = " + before);
            root.execute("call lift_suspension(?)", MAL);
            new AccountAdministration(root).dropAccount(NEWCOMER);
        }
        assertThat(count("select count(*) from ended_session where account = ? and reason = 'prepared statements'", MAL)).isEqualTo(1);
    }

    @Test
    void anEditorCannotCreateTemporaryTables() {
        String refusal = attacks.refused("CREATE TEMPORARY TABLE from an editor's session",
                () -> attacks.runs(MAL, PASSWORD, "CREATE TEMPORARY TABLE hoard (a INT)"));
        assertThat(refusal).containsAnyOf("denied", "Access");
    }

    // --- helpers ----------------------------------------------------------------------------

    private Connection otherAppSession() throws SQLException {
        return java.sql.DriverManager.getConnection(db.endpoint().accountUrl(otherDatabase), OTHER_APP, PASSWORD);
    }

    /** PREPAREs on {@code s} until the server refuses with 1461 (its count is full); returns how many it took. */
    private static int fill(Statement s, int heldBefore) throws SQLException {
        int taken = 0;
        while (taken < 5000) {
            try {
                s.execute("PREPARE s" + (heldBefore + taken + 1) + " FROM 'SELECT 1'");
                taken++;
            } catch (SQLException e) {
                if (e.getErrorCode() != 1461) {
                    throw e;
                }
                return taken;
            }
        }
        throw new AssertionError("5000 PREPAREs and the server's count is not full");
    }

    private long memoryOf(String account) {
        return root.fetchOne("select coalesce(max(memory_used), 0) from information_schema.processlist where user = ?", account)
                .get(0, Long.class);
    }

    private String newcomer() {
        new Newsroom(root).addEditor(NEWCOMER, "Newcomer", Role.EDITOR, 1, List.of("news"));
        return NEWCOMER;
    }

    private long preparedNow() {
        return root.fetchOne(bobDb.capabilities().mariaDb()
                ? "select variable_value from information_schema.global_status where variable_name = 'PREPARED_STMT_COUNT'"
                : "select variable_value from performance_schema.global_status where variable_name = 'Prepared_stmt_count'")
                .get(0, Long.class);
    }

    private Duration whileSweeping(Runnable work) throws InterruptedException {
        return SweepingMeanwhile.whileSweeping(sweepFromBobsClient, work);
    }

    private static void awaitGone(Statement s) {
        SweepingMeanwhile.awaitGone(s, "the session");
    }

    private long count(String sql, Object... bindings) {
        return root.fetchOne(sql, bindings).get(0, Long.class);
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
