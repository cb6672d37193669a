package org.copydesk.review;

import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.DEADLINE_EVENT;
import static org.copydesk.db.schema.Tables.DEADLINE_FORECAST_TURN;
import static org.copydesk.db.schema.Tables.OUTCOME_EVENT;
import static org.copydesk.db.schema.Tables.SWEEP_TURN;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import org.copydesk.db.schema.enums.ArticleStatus;
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
 * Attacks on the forecast from people's own database accounts, with raw SQL (docs/deadlines.md,
 * "What the database enforces"): only supervisors read the forecast; nobody writes a deadline
 * event but the sweep; and what is at risk is the server's clock's call, whatever a session sets
 * in {@code @@time_zone} and {@code @@timestamp}. Each attack has its control first.
 */
@ExtendWith(DatabaseExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DeadlineForecastSecurityTest {

    private static final Logger log = LoggerFactory.getLogger(DeadlineForecastSecurityTest.class);
    private static final String ANN = "risk_ann";
    private static final String ANN_SECRET = "ann-risk-secret-1";
    private static final String SUE = "risk_sue";
    private static final String SUE_SECRET = "sue-risk-secret-1";
    /** A session that says it is 2037 somewhere five hours east of UTC. */
    private static final String[] TAMPERED = {"SET time_zone = '+05:00'", "SET timestamp = UNIX_TIMESTAMP('2037-06-01 12:00:00')"};

    private final DSLContext root;
    private final Attacks attacks;
    private final ForecastDesk news;

    DeadlineForecastSecurityTest(TestDatabase db) {
        this.root = db.dsl();
        this.attacks = new Attacks(db);
        this.news = new ForecastDesk(root, "news");
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
        attacks.log(log, "editors and supervisors on the deadline forecast");
        AccountAdministration accounts = new AccountAdministration(root);
        List.of(ANN, SUE).forEach(accounts::dropAccount);
    }

    @BeforeEach
    void aDeskWithTwoAtRisk() {
        root.deleteFrom(OUTCOME_EVENT).execute();
        root.deleteFrom(DEADLINE_FORECAST_TURN).execute();
        root.deleteFrom(org.copydesk.db.schema.Tables.DECISION).execute();
        Fixtures.clear(root);
        // 12 an hour: 300 s an article; the 2nd and 4th in line are due before their turn comes
        news.decisions(null, 12, 10);
        for (int due : new int[] {400, 500, 1000, 1100}) {
            news.article(3, null, due);
        }
    }

    private List<Long> atRiskAsSeenBy(String user, String password, String... settings) {
        try (Connection c = attacks.session(user, password); Statement s = c.createStatement()) {
            for (String setting : settings) {
                s.execute(setting);
            }
            List<Long> atRisk = new ArrayList<>();
            int result = 0;
            for (boolean isResult = s.execute("CALL deadline_forecast('news', 240)"); isResult || s.getUpdateCount() != -1;
                 isResult = s.getMoreResults()) {
                if (isResult && ++result == 3) {
                    try (ResultSet rs = s.getResultSet()) {
                        while (rs.next()) {
                            if (rs.getInt("at_risk") == 1) {
                                atRisk.add(rs.getLong("article_id"));
                            }
                        }
                    }
                }
            }
            return atRisk;
        } catch (SQLException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    /** The 2nd and 4th waiting article in due order. */
    private List<Long> expectedAtRisk() {
        List<Long> waiting = root.select(ARTICLE.ID).from(ARTICLE).where(ARTICLE.STATUS.eq(ArticleStatus.queued)).orderBy(ARTICLE.DUE_AT)
                .fetch(ARTICLE.ID);
        return List.of(waiting.get(1), waiting.get(3));
    }

    @Test
    void onlyASupervisorReadsTheForecast() {
        // control: the supervisor's own account reads it
        assertThat(atRiskAsSeenBy(SUE, SUE_SECRET)).containsExactlyElementsOf(expectedAtRisk());
        attacks.refused("an editor reads the forecast", () -> atRiskAsSeenBy(ANN, ANN_SECRET));
        attacks.refused("an editor calls the forecast inside with a session's own time", () -> attacks.runs(ANN, ANN_SECRET,
                "CALL forecast_deadlines('news', 14400, '2000-01-01', @s, @a)"));
        attacks.refused("a supervisor calls the forecast inside", () -> attacks.runs(SUE, SUE_SECRET,
                "CALL forecast_deadlines('news', 14400, '2000-01-01', @s, @a)"));
        attacks.refused("a supervisor runs the sweep's forecast past its turn", () -> attacks.runs(SUE, SUE_SECRET,
                "CALL report_deadlines_at_risk(20)"));
    }

    @Test
    void nobodyWritesADeadlineEventButTheSweep() {
        long id = expectedAtRisk().get(0);
        String insert = "INSERT INTO deadline_event (article_id, kind, due_at, occurred_at) VALUES (" + id
                + ", 'deadline_at_risk', '2000-01-01', '2000-01-01')";
        // control: an editor reads the events, and the owner's INSERT goes through
        assertThat(attacks.runs(ANN, ANN_SECRET, "SELECT COUNT(*) FROM deadline_event")).isEqualTo("0");
        root.execute(insert);
        assertThat(root.fetchCount(DEADLINE_EVENT)).isEqualTo(1);
        attacks.refused("an editor writes an at-risk event", () -> attacks.runs(ANN, ANN_SECRET, insert.replace("2000-01-01'",
                "2001-01-01'")));
        attacks.refused("a supervisor writes an at-risk event", () -> attacks.runs(SUE, SUE_SECRET, insert.replace("2000-01-01'",
                "2002-01-01'")));
        attacks.refused("a supervisor rewrites an event's words", () -> attacks.runs(SUE, SUE_SECRET,
                "UPDATE deadline_event SET detail = 'all fine'"));
        attacks.refused("a supervisor deletes an event so it is told again", () -> attacks.runs(SUE, SUE_SECRET,
                "DELETE FROM deadline_event"));
        attacks.refused("a supervisor moves the desk's forecast turn off", () -> attacks.runs(SUE, SUE_SECRET,
                "INSERT INTO deadline_forecast_turn (desk_id, due_at) VALUES ('news', '2099-01-01')"));
        assertThat(root.fetchCount(DEADLINE_EVENT)).isEqualTo(1);
    }

    /**
     * A supervisor's session in 2037 at UTC+5 reads the same articles at risk as an honest one (with
     * the session's clock, the last hour's decisions would be years ago: no pace, nothing at risk, and
     * every due time long past); an editor's sweep from such a session tells exactly those.
     */
    @Test
    void aSessionsClockMovesNothingAtRisk() {
        List<Long> honest = atRiskAsSeenBy(SUE, SUE_SECRET);
        assertThat(honest).as("control: the honest forecast").containsExactlyElementsOf(expectedAtRisk());
        assertThat(attacks.runs(SUE, SUE_SECRET, TAMPERED[0], TAMPERED[1], "SELECT YEAR(UTC_TIMESTAMP())"))
                .as("control: the tampered session's own clock says 2037").isEqualTo("2037");

        assertThat(atRiskAsSeenBy(SUE, SUE_SECRET, TAMPERED)).as("the tampered session's forecast").isEqualTo(honest);
        root.update(SWEEP_TURN).set(SWEEP_TURN.DUE_AT, LocalDateTime.of(2000, 1, 1, 0, 0)).execute();
        attacks.noEffect("an editor's session in 2037 at UTC+5 calls the sweep", attacks.runs(ANN, ANN_SECRET, TAMPERED[0],
                TAMPERED[1], "CALL take_sweep_turn(5000)"));
        assertThat(root.select(OUTCOME_EVENT.ARTICLE_ID).from(OUTCOME_EVENT).where(OUTCOME_EVENT.OUTCOME.eq("deadline_at_risk"))
                .orderBy(OUTCOME_EVENT.ARTICLE_ID).fetch(OUTCOME_EVENT.ARTICLE_ID)).as("told").containsExactlyElementsOf(honest);
        assertThat(root.fetchValue(DEADLINE_FORECAST_TURN.DUE_AT, DEADLINE_FORECAST_TURN.DESK_ID.eq("news")))
                .as("the desk's next forecast a minute from the server's now, not 2037").isBefore(LocalDateTime.of(2030, 1, 1, 0, 0));
    }
}
