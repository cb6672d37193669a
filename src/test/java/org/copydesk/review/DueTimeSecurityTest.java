package org.copydesk.review;

import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.DEADLINE_EVENT;
import static org.copydesk.db.schema.Tables.LEASE_EVENT;
import static org.copydesk.db.schema.Tables.OUTCOME_EVENT;
import static org.copydesk.db.schema.Tables.SWEEP_TURN;

import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import org.copydesk.lease.ServerClock;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.TestDatabase;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Attacks on due times from people's own database accounts, with raw SQL (docs/deadlines.md, "What
 * the database enforces"): only a supervisor's {@code set_due_time} changes a due time, with a
 * reason, and whether a due time has passed is the server's clock's call, whatever a session sets
 * in {@code @@time_zone} and {@code @@timestamp}. Each attack has its control first: the honest
 * path goes through.
 */
@ExtendWith(DatabaseExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DueTimeSecurityTest {

    private static final Logger log = LoggerFactory.getLogger(DueTimeSecurityTest.class);
    private static final String ANN = "due_ann";
    private static final String ANN_SECRET = "ann-due-secret-1";
    private static final String SUE = "due_sue";
    private static final String SUE_SECRET = "sue-due-secret-1";
    private static final DateTimeFormatter SQL_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS");
    /** A session that says it is 2037 somewhere five hours east of UTC. */
    private static final String[] TAMPERED = {"SET time_zone = '+05:00'", "SET timestamp = UNIX_TIMESTAMP('2037-06-01 12:00:00')"};

    private final DSLContext root;
    private final Attacks attacks;

    DueTimeSecurityTest(TestDatabase db) {
        this.root = db.dsl();
        this.attacks = new Attacks(db);
    }

    @BeforeAll
    void accounts() {
        Newsroom n = new Newsroom(root);
        n.addDesk("news", "News", Duration.ofMinutes(30));
        n.addEditor(ANN, "Ann", Role.EDITOR, 5, List.of("news"));
        n.addEditor(SUE, "Sue", Role.SUPERVISOR, 5, List.of("news"));
        AccountAdministration accounts = new AccountAdministration(root);
        accounts.createAccount(ANN, ANN_SECRET.toCharArray());
        accounts.createAccount(SUE, SUE_SECRET.toCharArray());
    }

    @AfterAll
    void close() {
        attacks.log(log, "editors and supervisors on due times");
        AccountAdministration accounts = new AccountAdministration(root);
        List.of(ANN, SUE).forEach(accounts::dropAccount);
    }

    @BeforeEach
    void emptyDesk() {
        root.deleteFrom(OUTCOME_EVENT).execute();
        Fixtures.clear(root);
    }

    private String ann(String... statements) {
        return attacks.runs(ANN, ANN_SECRET, statements);
    }

    private String sue(String... statements) {
        return attacks.runs(SUE, SUE_SECRET, statements);
    }

    private LocalDateTime serverNow() {
        return root.select(ServerClock.now()).fetchOne(0, LocalDateTime.class);
    }

    private LocalDateTime dueAt(long id) {
        return root.fetchValue(ARTICLE.DUE_AT, ARTICLE.ID.eq(id));
    }

    private static String setDue(long id, LocalDateTime utc, String reason) {
        return "CALL set_due_time(NULL, " + id + ", " + (utc == null ? "NULL" : "'" + SQL_TIME.format(utc) + "'") + ", "
                + (reason == null ? "NULL" : "'" + reason + "'") + ")";
    }

    @Test
    void onlyASupervisorsOperationChangesADueTimeAndItWantsAReason() {
        long id = Fixtures.articles(root, "news", 1, 3, -60).get(0);
        LocalDateTime edition = serverNow().plusHours(2).withNano(0);

        // control: the supervisor's operation sets it, with the old and the new time in the history
        sue(setDue(id, edition, "the print edition"));
        assertThat(dueAt(id)).isEqualTo(edition);
        assertThat(root.fetchValue(LEASE_EVENT.DETAIL, LEASE_EVENT.ROW_KEY.eq(Long.toString(id)).and(LEASE_EVENT.ACTION.eq("due"))))
                .isEqualTo("due none → " + SQL_TIME.format(edition).substring(0, 19) + " UTC: the print edition");
        assertThat(ann("SELECT due_at FROM article WHERE id = " + id)).as("an editor reads it").startsWith(
                SQL_TIME.format(edition).substring(0, 19));

        LocalDateTime earlier = edition.minusHours(1);
        attacks.refused("an editor calls set_due_time", () -> ann(setDue(id, earlier, "mine first")));
        attacks.refused("a supervisor sets a due time without a reason", () -> sue(setDue(id, earlier, "  ")));
        attacks.refused("an editor writes article.due_at", () -> ann("UPDATE article SET due_at = '2000-01-01' WHERE id = " + id));
        attacks.refused("an editor writes article.due_order (the claim order)", () -> ann(
                "UPDATE article SET due_order = '2000-01-01' WHERE id = " + id));
        attacks.refused("a supervisor writes article.due_at", () -> sue("UPDATE article SET due_at = NULL WHERE id = " + id));
        attacks.refused("a supervisor clears the watch so no miss is told", () -> sue(
                "UPDATE article SET due_watch_at = NULL WHERE id = " + id));
        attacks.refused("an editor writes a deadline event", () -> ann("INSERT INTO deadline_event (article_id, kind, due_at, "
                + "occurred_at) VALUES (" + id + ", 'deadline_missed', '2000-01-01', '2000-01-01')"));
        assertThat(dueAt(id)).isEqualTo(edition);

        // control of the writes: the same UPDATE by the schema's owner does change it
        root.execute("UPDATE article SET due_at = '2000-01-01' WHERE id = " + id);
        assertThat(dueAt(id)).isEqualTo(LocalDateTime.of(2000, 1, 1, 0, 0));
    }

    /**
     * A supervisor's session set to 2037 in UTC+5 sets a due time: it is stored as the UTC time given,
     * and "late" is the server's answer; the sweep an editor's tampered session calls tells no
     * deadline as missed before the server's clock reaches it, and tells one that has passed once.
     */
    @Test
    void aSessionsTimeZoneAndTimestampMoveNoDueTimeAndNoMiss() {
        long soon = Fixtures.articles(root, "news", 1, 3, -60).get(0);
        long past = Fixtures.articles(root, "news", 1, 3, -60).get(0);
        LocalDateTime now = serverNow().withNano(0);
        LocalDateTime inAnHour = now.plusHours(1);

        String late = attacks.runs(SUE, SUE_SECRET, TAMPERED[0], TAMPERED[1], setDue(soon, inAnHour, "web"));
        assertThat(late).as("set_due_time's first column").isEqualTo(Long.toString(soon));
        assertThat(dueAt(soon)).as("stored as given, UTC").isEqualTo(inAnHour);
        assertThat(root.fetchValue(ARTICLE.DUE_ORDER, ARTICLE.ID.eq(soon))).as("its minute, as claims order it")
                .isEqualTo(inAnHour.truncatedTo(java.time.temporal.ChronoUnit.MINUTES));
        String lateFlag = sueLateFlag(past, now.minusMinutes(10));
        assertThat(lateFlag).as("a due time 10 minutes ago is late, whatever the session says").isEqualTo("1");
        assertThat(sueLateFlag(soon, inAnHour)).as("in an hour is not late, though the session says 2037").isEqualTo("0");

        sweepDue();
        attacks.noEffect("an editor's session in 2037 at UTC+5 calls the sweep", ann(TAMPERED[0], TAMPERED[1],
                "CALL take_sweep_turn(5000)"));
        assertThat(missed()).as("only the one whose due time passed on the server's clock").containsExactly(past);
        sweepDue();
        ann(TAMPERED[0], TAMPERED[1], "CALL take_sweep_turn(5000)");
        assertThat(missed()).as("told once").containsExactly(past);
        assertThat(root.fetchCount(DEADLINE_EVENT)).isEqualTo(1);
    }

    private String sueLateFlag(long id, LocalDateTime due) {
        try (var c = attacks.session(SUE, SUE_SECRET); var s = c.createStatement()) {
            s.execute(TAMPERED[0]);
            s.execute(TAMPERED[1]);
            try (var rs = s.executeQuery(setDue(id, due, "moved"))) {
                rs.next();
                return rs.getString("late");
            }
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private void sweepDue() {
        root.update(SWEEP_TURN).set(SWEEP_TURN.DUE_AT, LocalDateTime.of(2000, 1, 1, 0, 0)).execute();
    }

    private List<Long> missed() {
        return root.select(OUTCOME_EVENT.ARTICLE_ID).from(OUTCOME_EVENT).where(OUTCOME_EVENT.OUTCOME.eq("deadline_missed"))
                .orderBy(OUTCOME_EVENT.ID).fetch(OUTCOME_EVENT.ARTICLE_ID);
    }
}
