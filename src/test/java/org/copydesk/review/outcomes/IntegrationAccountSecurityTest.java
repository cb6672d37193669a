package org.copydesk.review.outcomes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.copydesk.db.schema.Tables.OUTCOME_EVENT;
import static org.copydesk.db.schema.Tables.RELAY_LEASE;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.copydesk.db.schema.Tables;
import org.copydesk.review.AccountAdministration;
import org.copydesk.review.DatabaseOperations;
import org.copydesk.review.DecisionRequest;
import org.copydesk.review.HeldArticle;
import org.copydesk.review.Newsroom;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.Role;
import org.copydesk.review.Verdict;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.TestDatabase;
import org.jooq.DSLContext;
import org.jooq.Record;
import org.jooq.Result;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Attacks with the integration accounts' own sessions (and people's, on the relay's operations):
 * a feed reader reads the feed's view and nothing else and writes nothing; a relay calls the relay's
 * operations and nothing else; people cannot deliver, and editors cannot retry. Each refused attack
 * must leave the outbox, the relay lease and the articles as they were.
 */
@ExtendWith(DatabaseExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class IntegrationAccountSecurityTest {

    private static final Logger log = LoggerFactory.getLogger(IntegrationAccountSecurityTest.class);
    private static final String SUFFIX = "_" + ProcessHandle.current().pid();
    private static final String READER = "ia_reader" + SUFFIX;
    private static final String RELAY = "ia_relay" + SUFFIX;
    private static final String ANN = "ia_ann" + SUFFIX;
    private static final String SUE = "ia_sue" + SUFFIX;
    private static final String ADM = "ia_adm" + SUFFIX;
    private static final String PASSWORD = "integration-secret-1";

    private final TestDatabase db;
    private final DSLContext root;
    private final ReviewSession session;
    private final List<String> attempts = new ArrayList<>();

    IntegrationAccountSecurityTest(TestDatabase db) {
        this.db = db;
        this.root = db.dsl();
        this.session = new ReviewSession(db.database(), ReviewSession.Options.defaults());
    }

    @BeforeAll
    void accounts() {
        Fixtures.emptyNewsroom(root);
        Newsroom n = session.newsroom();
        n.addDesk("news", "News", Duration.ofMinutes(30));
        n.addEditor(ANN, "Ann", Role.EDITOR, 5, List.of("news"));
        n.addEditor(SUE, "Sue", Role.SUPERVISOR, 5, List.of("news"));
        n.addEditor(ADM, "Adam", Role.ADMIN, 0, List.of());
        AccountAdministration accounts = session.accounts();
        for (String person : List.of(ANN, SUE, ADM)) {
            accounts.createAccount(person, PASSWORD.toCharArray());
        }
        accounts.createIntegrationAccount(READER, "feed_reader", PASSWORD.toCharArray());
        accounts.createIntegrationAccount(RELAY, "relay", PASSWORD.toCharArray());
    }

    @AfterAll
    void dropAccounts() {
        log.info("Attacks with integration accounts ({}):\n  {}", attempts.size(), String.join("\n  ", attempts));
        AccountAdministration accounts = session.accounts();
        accounts.dropIntegrationAccount(READER);
        accounts.dropIntegrationAccount(RELAY);
        List.of(ANN, SUE, ADM).forEach(accounts::dropAccount);
        root.execute("drop user if exists 'ia_other" + SUFFIX + "'@'%'");
    }

    @BeforeEach
    void oneOutcome() {
        root.deleteFrom(OUTCOME_EVENT).execute();
        Fixtures.clear(root);
        Fixtures.articles(root, "news", 3, 3, -60);
        HeldArticle held = session.queue().claim(ANN).articles().get(0);
        session.decisions().submit(new DecisionRequest(UUID.randomUUID(), held.id(), held.lease(), Verdict.APPROVE, ""));
    }

    private Connection session(String user) throws SQLException {
        return DriverManager.getConnection(db.endpoint().accountUrl(db.name()), user, PASSWORD);
    }

    private String runs(String user, String sql) {
        try (Connection c = session(user); Statement s = c.createStatement()) {
            if (s.execute(sql)) {
                try (ResultSet rs = s.getResultSet()) {
                    return rs.next() ? String.valueOf(rs.getObject(1)) : "no rows";
                }
            }
            return "ok";
        } catch (SQLException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    private record Snapshot(Result<Record> outbox, Result<Record> lease, Result<Record> articles) {
    }

    private Snapshot snapshot() {
        return new Snapshot(root.select(OUTCOME_EVENT.fields()).from(OUTCOME_EVENT).orderBy(OUTCOME_EVENT.ID).fetch(),
                root.select(RELAY_LEASE.fields()).from(RELAY_LEASE).fetch(),
                root.select(Tables.ARTICLE.fields()).from(Tables.ARTICLE)
                        .orderBy(Tables.ARTICLE.ID).fetch());
    }

    private void refused(String user, String sql) {
        Snapshot before = snapshot();
        assertThatThrownBy(() -> runs(user, sql)).as(user + ": " + sql)
                .satisfies(e -> assertThat(e.getMessage()).containsAnyOf("denied", "Copydesk:", "Unknown column"));
        assertThat(snapshot()).as(user + ": " + sql + " changed something").isEqualTo(before);
        String reason;
        try {
            runs(user, sql);
            reason = "?";
        } catch (IllegalStateException e) {
            reason = e.getMessage();
        }
        attempts.add(user.replace(SUFFIX, "") + ": " + sql + " -> refused: " + reason);
    }

    @Test
    void aFeedReaderReadsTheFeedsColumnsAndNothingElse() {
        assertThat(runs(READER, "select count(*) from outcome_feed")).isEqualTo("1");
        assertThat(runs(READER, "select outcome from outcome_feed")).isEqualTo("approved");
        for (String table : List.of("outcome_event", "article", "decision", "lease_event", "editor", "review_draft",
                "relay_lease", "integration_account", "flyway_schema_history")) {
            refused(READER, "select * from " + table);
        }
        refused(READER, "select delivery from outcome_feed"); // no delivery state in the view
        refused(READER, "insert into outcome_feed (idempotency_key) values ('x')");
        refused(READER, "update outcome_feed set notes = 'forged'");
        refused(READER, "delete from outcome_feed");
        refused(READER, "call decide_article(null, 1, 1, '" + UUID.randomUUID() + "', 'approve', '')");
        refused(READER, "call relay_acquire('reader', 30, 9152851034128977409)");
        refused(READER, "call relay_retry(null, null)");
        List<String> grants = root.fetch("show grants for '" + READER + "'@'%'").getValues(0, String.class);
        assertThat(grants).filteredOn(g -> !g.startsWith("GRANT USAGE")).singleElement(InstanceOfAssertFactories.STRING)
                .contains("GRANT SELECT ON", "`outcome_feed`");
    }

    @Test
    void aRelayCallsTheRelaysOperationsAndNothingElse() {
        for (String table : List.of("outcome_feed", "outcome_event", "article", "relay_lease")) {
            refused(RELAY, "select * from " + table);
        }
        refused(RELAY, "update outcome_event set delivery = 'delivered'");
        refused(RELAY, "call relay_retry(null, null)");
        refused(RELAY, "call decide_article(null, 1, 1, '" + UUID.randomUUID() + "', 'approve', '')");
        refused(RELAY, "call create_integration_account('ia_more', 'relay', 'a-long-password-1')");
        refused(RELAY, "call relay_record_attempt(999999, 1, 1, 'forged', 0, 1)"); // without the lease
        refused(RELAY, "call relay_acquire('attacker', 30, 1)"); // a guessable token of its own choosing
        assertThat(runs(RELAY, "call relay_acquire('attacker', 30, 9152851034128977409)")).isNotEqualTo("0");
        List<String> grants = root.fetch("show grants for '" + RELAY + "'@'%'").getValues(0, String.class);
        assertThat(grants).filteredOn(g -> !g.startsWith("GRANT USAGE")).allMatch(g -> g.startsWith("GRANT EXECUTE ON PROCEDURE"))
                .hasSize(4);
        root.update(RELAY_LEASE).setNull(RELAY_LEASE.HOLDER).setNull(RELAY_LEASE.EXPIRES_AT).execute();
    }

    @Test
    void peopleCannotDeliverAndEditorsCannotRetry() {
        refused(ANN, "call relay_acquire('ann', 30, 9152851034128977409)");
        refused(ANN, "call relay_record_attempt(1, 1, 1, 'forged', 0, 1)");
        refused(ANN, "call relay_retry(null, null)");
        refused(ANN, "update outcome_event set delivery = 'failed'");
        refused(ANN, "call create_integration_account('ia_mine', 'feed_reader', 'a-long-password-1')");
        refused(SUE, "call relay_acquire('sue', 30, 9152851034128977409)");
        refused(SUE, "delete from outcome_event");
        assertThat(runs(SUE, "call relay_retry(null, null)")).isEqualTo("0");
        refused(ANN, "select count(*) from outcome_feed"); // V11: the feed is for supervisors and feed readers
        assertThat(runs(SUE, "select count(*) from outcome_feed")).isEqualTo("1");
    }

    @Test
    void integrationAccountsAreNeverPeopleTheServersOwnOrSomeoneElsesAccounts() {
        refused(ADM, "call create_integration_account('" + ANN + "', 'feed_reader', 'a-long-password-1')");
        refused(ADM, "call create_integration_account('root', 'relay', 'a-long-password-1')");
        root.execute("create user if not exists 'ia_other" + SUFFIX + "'@'%' identified by 'other-app-password'");
        refused(ADM, "call create_integration_account('ia_other" + SUFFIX + "', 'feed_reader', 'a-long-password-1')");
        refused(ADM, "call create_integration_account('ia_x''; drop table article; --', 'feed_reader', 'a-long-password-1')");
        refused(ADM, "call create_integration_account('ia_kind" + SUFFIX + "', 'admin', 'a-long-password-1')");
        refused(ADM, "call create_integration_account('ia_short" + SUFFIX + "', 'relay', 'short')");
        refused(ADM, "call drop_integration_account('" + ANN + "')");
    }

    /**
     * A feed reader's locking read of the view locks outcome rows (and, at REPEATABLE READ or
     * SERIALIZABLE, the gap new outcomes go into), which would stop every decision: the sweep every
     * client runs ends such a session within the limit and suspends the account.
     */
    @Test
    void aFeedReaderHoldingLocksThroughTheViewIsEndedSoDecisionsGoOn() throws Exception {
        root.execute("update session_limit set lock_seconds = 1, suspend_seconds = 600");
        org.copydesk.review.SessionSweep sweep = new org.copydesk.review.SessionSweep(root);
        try (Connection attacker = session(READER); Statement s = attacker.createStatement()) {
            s.execute("set session transaction isolation level serializable");
            attacker.setAutoCommit(false);
            s.executeQuery("select * from outcome_feed").close();
            long started = System.nanoTime();
            while (sweep.runOnce().ended().isEmpty() && System.nanoTime() - started < 10_000_000_000L) {
                Thread.sleep(200);
            }
            assertThatThrownBy(() -> s.executeQuery("select 1").close()).isInstanceOf(SQLException.class);
            attempts.add("reader: serializable read of outcome_feed, held -> session ended after "
                    + (System.nanoTime() - started) / 1_000_000 + " ms; decisions went on");
        } finally {
            root.execute("call lift_suspension(?)", READER);
        }
        HeldArticle held = session.queue().claim(ANN).articles().get(0);
        session.decisions().submit(new DecisionRequest(UUID.randomUUID(), held.id(), held.lease(), Verdict.APPROVE, ""));
        assertThat(root.fetchCount(OUTCOME_EVENT)).isEqualTo(2);
    }

    /**
     * The delivery lease's token fences every write of a relay; another relay (the same account
     * runs on another machine, or a second one) must not be able to guess it and release the lease
     * or record attempts under it. Tokens are random, not the next number.
     */
    @Test
    void aRelayCannotGuessAnotherRelaysDeliveryToken() throws Exception {
        RelayProcedures holder = new RelayProcedures(DatabaseOperations.withDefaultRetries(root));
        long first = holder.acquire("relay-a", 30).token();
        holder.release(first);
        long token = holder.acquire("relay-a", 30).token();
        assertThat(token).as("a new holding, a new token").isNotEqualTo(first);
        try (Connection other = session(RELAY); Statement s = other.createStatement()) {
            int released = 0;
            for (long guess : java.util.stream.LongStream.concat(java.util.stream.LongStream.rangeClosed(0, 300),
                    java.util.stream.LongStream.rangeClosed(first - 100, first + 100)).toArray()) {
                try (ResultSet rs = s.executeQuery("call relay_release(" + guess + ")")) {
                    released += rs.next() ? rs.getInt(1) : 0;
                }
            }
            assertThat(released).as("guessed releases").isZero();
        }
        assertThat(root.select(RELAY_LEASE.HOLDER).from(RELAY_LEASE).fetchOne(RELAY_LEASE.HOLDER)).isEqualTo("relay-a");
        attempts.add("relay: relay_release(0..300) and (the last token +-100) against another relay's lease -> none released");
        holder.release(token);
    }
}
