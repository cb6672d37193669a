package org.copydesk.review;

import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.DEADLINE_FORECAST_TURN;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import org.copydesk.lease.ServerClock;
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
 * What a forecast costs at a realistic size (docs/deadlines.md, "What it costs"): 2,000 articles
 * waiting on the desk, 200 of them due in the next 4 hours, 3,000 more waiting on another desk, 60
 * decisions in the last hour and 3,000 older ones. Counts, per call, the rows and index entries
 * read and the statements run inside the routines ({@link CallCost}), for the dashboard's read and
 * for the sweep's part with and without a desk to forecast; logs the figures and the walk's plan,
 * and holds them to bounds.
 */
@ExtendWith(DatabaseExtension.class)
class DeadlineForecastCostTest {

    private static final Logger log = LoggerFactory.getLogger(DeadlineForecastCostTest.class);
    private static final int CALLS = 20;

    private final TestDatabase db;
    private final DSLContext dsl;

    DeadlineForecastCostTest(TestDatabase db) {
        this.db = db;
        this.dsl = db.dsl();
    }

    @BeforeEach
    void aBusyDesk() {
        dsl.deleteFrom(DEADLINE_FORECAST_TURN).execute();
        Fixtures.emptyNewsroom(dsl);
        Newsroom n = new Newsroom(dsl);
        n.addDesk("news", "News", Duration.ofMinutes(30));
        n.addDesk("sport", "Sport", Duration.ofMinutes(30));
        n.addEditor("ann", "Ann", Role.EDITOR, 5, List.of("news"));
        ForecastDesk news = new ForecastDesk(dsl, "news");
        news.decisions(null, 60, 20);
        new ForecastDesk(dsl, "sport").decisions(null, 3000, 300);
        List<Long> waiting = Fixtures.articles(dsl, "news", 2000, 3, -600);
        // every tenth due in the next 4 hours, a minute apart and more
        for (int i = 0; i < 200; i++) {
            var at = ServerClock.nowPlus(Duration.ofSeconds(60L + 70L * i));
            dsl.update(ARTICLE).set(ARTICLE.DUE_AT, at).set(ARTICLE.DUE_ORDER, at).set(ARTICLE.DUE_WATCH_AT, at)
                    .where(ARTICLE.ID.eq(waiting.get(i * 10))).execute();
        }
        Fixtures.articles(dsl, "sport", 3000, 3, -600);
        dsl.execute("ANALYZE TABLE article, decision");
    }

    private Connection session() throws SQLException {
        return DriverManager.getConnection(db.endpoint().url(db.name()), db.endpoint().user(), db.endpoint().password());
    }

    @Test
    void aForecastReadsAboutTheDueArticlesNotTheWholeQueueOrHistory() throws Exception {
        try (Connection c = session(); Statement s = c.createStatement()) {
            // the sweep's part is called here past take_sweep_turn, whose operation_begins pins this
            s.execute("SET SESSION group_concat_max_len = 1048576");
            CallCost.drain(s, "CALL report_deadlines_at_risk(2)"); // both desks forecast once, what is at risk told
            CallCost read = CallCost.of(s, null, "CALL deadline_forecast('news', 240)", CALLS);
            CallCost sweepIdle = CallCost.of(s, null, "CALL report_deadlines_at_risk(2)", CALLS);
            CallCost sweepDesk = CallCost.of(s, "UPDATE deadline_forecast_turn SET due_at = '2000-01-01' WHERE desk_id = 'news'",
                    "CALL report_deadlines_at_risk(1)", CALLS);
            StringBuilder plan = new StringBuilder();
            try (ResultSet rs = s.executeQuery("EXPLAIN SELECT id FROM article FORCE INDEX (ix_article_claim) WHERE status = 'queued' "
                    + "AND (priority < 3 OR (priority = 3 AND due_order <= UTC_TIMESTAMP() + INTERVAL 4 HOUR)) AND desk_id = 'news' "
                    + "ORDER BY priority, due_order, queue_lane, available_at, id LIMIT 3000")) {
                while (rs.next()) {
                    plan.append(rs.getString("type")).append(' ').append(rs.getString("key")).append(" rows=").append(rs.getString("rows"))
                            .append(' ').append(rs.getString("Extra"));
                }
            }
            log.info("forecast cost, 2,000 waiting (200 due in 4 h) + 3,000 on another desk, 60 + 3,000 decisions: "
                    + "deadline_forecast: {}; sweep part, no desk due: {}; sweep part forecasting the desk (nothing new to tell): {}; "
                    + "walk plan: {}", read, sweepIdle, sweepDesk, plan);
            assertThat(plan.toString()).as("the walk is a range of the claim index, in its order").startsWith("range ix_article_claim")
                    .doesNotContain("filesort");
            assertThat(read.tableRows()).as("about the 200 due and what is ahead of them, not the 5,000 waiting").isLessThan(2000);
            assertThat(read.statements()).as("no loop over the articles").isLessThan(100);
            assertThat(sweepIdle.rowsRead()).as("no desk due: a look at the desks").isLessThan(20);
            assertThat(sweepDesk.tableRows()).isLessThan(2000);
        }
    }
}
