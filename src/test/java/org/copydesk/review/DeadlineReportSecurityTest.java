package org.copydesk.review;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.TestDatabase;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Attacks on the report of how the desk did from people's own database accounts, with raw SQL
 * (docs/deadlines.md, "How the desk did"): only supervisors read it, and a session's own clock and
 * time zone move no decision to another day. Each attack has its control first.
 */
@ExtendWith(DatabaseExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DeadlineReportSecurityTest {

    private static final Logger log = LoggerFactory.getLogger(DeadlineReportSecurityTest.class);
    private static final String ANN = "report_ann";
    private static final String ANN_SECRET = "ann-report-secret-1";
    private static final String SUE = "report_sue";
    private static final String SUE_SECRET = "sue-report-secret-1";
    /** London's 25 October 2026 (25 hours), and the day before. */
    private static final String CALL = "CALL deadline_report(NULL, '[\"2026-10-23 23:00:00\", \"2026-10-24 23:00:00\", "
            + "\"2026-10-26 00:00:00\"]')";

    private final DSLContext root;
    private final Attacks attacks;

    DeadlineReportSecurityTest(TestDatabase db) {
        this.root = db.dsl();
        this.attacks = new Attacks(db);
    }

    @BeforeAll
    void accounts() {
        Fixtures.emptyNewsroom(root);
        Newsroom n = new Newsroom(root);
        n.addDesk("news", "News", Duration.ofMinutes(30));
        n.addEditor(ANN, "Ann", Role.EDITOR, 5, List.of("news"));
        n.addEditor(SUE, "Sue", Role.SUPERVISOR, 5, List.of("news"));
        AccountAdministration accounts = new AccountAdministration(root);
        accounts.createAccount(ANN, ANN_SECRET.toCharArray());
        accounts.createAccount(SUE, SUE_SECRET.toCharArray());
        DecisionHistory news = new DecisionHistory(root, "news");
        // 23:30 UTC on the 24th is 00:30 on the 25th in London; 23:30 UTC on the 25th still the 25th there
        for (String decided : List.of("2026-10-24T12:00:00Z", "2026-10-24T23:30:00Z", "2026-10-25T23:30:00Z")) {
            Instant at = Instant.parse(decided);
            news.approved(news.article(at.minusSeconds(600), at.plusSeconds(60)), null, at);
        }
    }

    @AfterAll
    void close() {
        attacks.log(log, "editors and supervisors on the deadline report");
        AccountAdministration accounts = new AccountAdministration(root);
        List.of(ANN, SUE).forEach(accounts::dropAccount);
    }

    /** Each row as "day_start desk decisions", as the account reads it over its own session. */
    private List<String> reportAsSeenBy(String user, String password, String... settings) {
        try (Connection c = attacks.session(user, password); Statement s = c.createStatement()) {
            for (String setting : settings) {
                s.execute(setting);
            }
            List<String> rows = new ArrayList<>();
            for (boolean isResult = s.execute(CALL); isResult || s.getUpdateCount() != -1; isResult = s.getMoreResults()) {
                if (isResult) {
                    try (ResultSet rs = s.getResultSet()) {
                        while (rs.next()) {
                            rows.add(rs.getObject("day_start", java.time.LocalDateTime.class) + " " + rs.getString("desk_id") + " "
                                    + rs.getInt("decisions"));
                        }
                    }
                }
            }
            return rows;
        } catch (SQLException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    @Test
    void onlyASupervisorReadsTheReport() {
        // control: the supervisor's own account reads it
        assertThat(reportAsSeenBy(SUE, SUE_SECRET)).hasSize(3);
        attacks.refused("an editor reads how the desk did", () -> reportAsSeenBy(ANN, ANN_SECRET));
    }

    /** The days are the bounds the caller passed, in UTC: a session at UTC+5 in 2037 reads the same days. */
    @Test
    void aSessionsClockAndZoneMoveNoDecisionToAnotherDay() {
        List<String> honest = reportAsSeenBy(SUE, SUE_SECRET);
        assertThat(honest).as("control: one on the 24th, two on London's 25th, then the span")
                .containsExactly("2026-10-23T23:00 news 1", "2026-10-24T23:00 news 2", "2026-10-23T23:00 news 3");
        assertThat(reportAsSeenBy(SUE, SUE_SECRET, "SET time_zone = '+05:00'",
                "SET timestamp = UNIX_TIMESTAMP('2037-06-01 12:00:00')")).isEqualTo(honest);
    }
}
