package org.copydesk.review;

import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.db.schema.Tables.ARTICLE;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.stream.Collectors;
import org.copydesk.testing.CallCost;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.TestDatabase;
import org.jooq.DSLContext;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a report of 7 days costs at a newsroom's size (docs/deadlines.md, "How the desk did"): 3,000
 * decisions a day over 3 desks for 14 days, the report covering the last 7. Counts, per call, the
 * rows and index entries read and the statements run ({@link CallCost}); logs the figures and
 * holds them to bounds: the report reads the span's
 * decisions and what each needs by key, not the history before it.
 */
@ExtendWith(DatabaseExtension.class)
class DeadlineReportCostTest {

    private static final Logger log = LoggerFactory.getLogger(DeadlineReportCostTest.class);
    private static final int CALLS = 5;
    private static final int PER_DAY = 3000;
    private static final int DAYS = 14;

    private final TestDatabase db;
    private final DSLContext dsl;

    DeadlineReportCostTest(TestDatabase db) {
        this.db = db;
        this.dsl = db.dsl();
    }

    @BeforeEach
    void fourteenDaysOfDecisions() {
        Fixtures.emptyNewsroom(dsl);
        Newsroom n = new Newsroom(dsl);
        for (String desk : List.of("news", "sport", "city")) {
            n.addDesk(desk, desk, Duration.ofMinutes(30));
        }
        n.addEditor("ann", "Ann", Role.EDITOR, 5, List.of("news"));
        // city has a stage: its decisions are each looked up once more, for the desk's through-the-desk row
        new DecisionHistory(dsl, "city").stage("copy", 1);
        // an article every 28.8 s from 1 October, each decided 0 to 59 minutes after it arrived; two in three had a due time
        java.time.LocalDateTime start = java.time.LocalDateTime.of(2026, 10, 1, 0, 0);
        for (int from = 0; from < PER_DAY * DAYS; from += 2000) {
            var insert = dsl.insertInto(ARTICLE, ARTICLE.EXTERNAL_ID, ARTICLE.DESK_ID, ARTICLE.TITLE, ARTICLE.BODY, ARTICLE.STATUS,
                    ARTICLE.AVAILABLE_AT, ARTICLE.CREATED_AT, ARTICLE.DUE_AT);
            for (int i = from; i < Math.min(PER_DAY * DAYS, from + 2000); i++) {
                java.time.LocalDateTime arrived = start.plusNanos(i * 28_800_000_000L);
                insert = insert.values("cost-" + i, List.of("news", "sport", "city").get(i % 3), "Article", "Body",
                        org.copydesk.db.schema.enums.ArticleStatus.approved, arrived, arrived, i % 3 == 0 ? null : arrived.plusMinutes(30));
            }
            insert.execute();
        }
        dsl.execute("INSERT INTO decision (request_id, article_id, editor_id, verdict, notes, lease_token, decided_at, revision, stage_id) "
                + "SELECT UUID(), a.id, 'ann', 'approve', '', 1, TIMESTAMPADD(SECOND, a.id % 3600, a.created_at), 1,"
                + " IF(a.desk_id = 'city', 'copy', NULL) FROM article a");
        dsl.execute("ANALYZE TABLE article, article_revision, decision");
    }

    private Connection session() throws SQLException {
        return DriverManager.getConnection(db.endpoint().url(db.name()), db.endpoint().user(), db.endpoint().password());
    }

    private static String call(String desk, LocalDate first, int days) {
        String bounds = DeadlineReport.days(first, days, ZoneOffset.UTC).stream()
                .map(d -> "\"" + d.start().toString().replace('T', ' ').replace("Z", "") + "\"").collect(Collectors.joining(", "));
        String end = "\"" + first.plusDays(days).atStartOfDay().toString().replace('T', ' ') + ":00\"";
        return "CALL deadline_report(" + (desk == null ? "NULL" : "'" + desk + "'") + ", '[" + bounds + ", " + end + "]')";
    }

    @Test
    void aWeeksReportReadsTheWeeksDecisionsByKeyNotTheHistoryBeforeIt() throws Exception {
        int inSpan = PER_DAY * 7;
        try (Connection c = session(); Statement s = c.createStatement()) {
            CallCost week = CallCost.of(s, null, call(null, LocalDate.of(2026, 10, 8), 7), CALLS);
            CallCost oneDesk = CallCost.of(s, null, call("news", LocalDate.of(2026, 10, 8), 7), CALLS);
            CallCost today = CallCost.of(s, null, call(null, LocalDate.of(2026, 10, 14), 1), CALLS);
            log.info("report cost, {} decisions a day over 3 desks for {} days ({} in the 7 days asked): 7 days, every desk: {}; "
                    + "7 days, one desk: {}; one day: {}", PER_DAY, DAYS, inSpan, week, oneDesk, today);
            assertThat(week.rowsAnswered()).as("7 days x (3 desks and city's final decisions), then the same over the span").isEqualTo(32);
            assertThat(oneDesk.tableRows()).as("one desk: the span's decisions too, not the desk's whole history")
                    .isLessThanOrEqualTo(week.tableRows());
            // measured: about 12 table and index reads a decision (the time index and the decision's row, its article and
            // revision by key, the decision before it from ix_decision_article) and 28 temporary rows (each decision meets
            // the days' list, and the window sorts); a final decision on a desk with stages (city's 7,000) is read once
            // more for the desk's through-the-desk row: 6 reads and 28 temporary rows more each on MariaDB 11.4, 3 reads on
            // MySQL 8.0 (252,679 and 147,176 table reads without that row, 294,728 and 168,204 with it)
            int finalOnStagedDesk = inSpan / 3;
            assertThat(week.tableRows()).as("the span's decisions, each with its article, revision and the decision before it, "
                    + "not the 21,000 before the span").isLessThan(inSpan * 14L + finalOnStagedDesk * 7L);
            assertThat(week.temporaryRows()).isLessThan(inSpan * 40L + finalOnStagedDesk * 40L);
            assertThat(today.tableRows()).as("one day: a seventh of it").isLessThan(PER_DAY * 14L);
            assertThat(week.statements()).as("one statement over the span, no loop").isLessThan(20);
        }
    }
}
