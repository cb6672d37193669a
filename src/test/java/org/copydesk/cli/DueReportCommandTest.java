package org.copydesk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import org.copydesk.lease.ServerClock;
import org.copydesk.review.AccountAdministration;
import org.copydesk.review.DecisionHistory;
import org.copydesk.review.Newsroom;
import org.copydesk.review.Role;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.TestDatabase;
import org.jooq.DSLContext;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code copydesk due report} (docs/deadlines.md, "How the desk did"): the database's report for a
 * supervisor as a table and JSON, days of the asked zone; an editor's account is refused in one line.
 */
@ExtendWith(DatabaseExtension.class)
class DueReportCommandTest {

    private final DSLContext dsl;
    private final CliRunner cli;
    private LocalDate twoDaysAgo;

    DueReportCommandTest(TestDatabase db) {
        this.dsl = db.dsl();
        this.cli = new CliRunner(db);
    }

    /** The day before yesterday (UTC) at noon: three decisions 10, 20 and 30 minutes after arrival, one of two with a due time late. */
    @BeforeEach
    void aDayOfDecisions() {
        Fixtures.emptyNewsroom(dsl);
        Newsroom n = new Newsroom(dsl);
        n.addDesk("news", "News", Duration.ofMinutes(30));
        n.addDesk("sport", "Sport", Duration.ofMinutes(30));
        n.addEditor("rp_cli_ed", "Ed", Role.EDITOR, 5, List.of("news"));
        LocalDateTime now = dsl.select(ServerClock.now()).fetchOne(0, LocalDateTime.class);
        twoDaysAgo = now.toLocalDate().minusDays(2);
        Instant noon = twoDaysAgo.atTime(12, 0).toInstant(ZoneOffset.UTC);
        DecisionHistory news = new DecisionHistory(dsl, "news");
        news.approved(news.article(noon.minusSeconds(600), null), null, noon);
        news.approved(news.article(noon.minusSeconds(1200), noon.plusSeconds(60)), null, noon);
        news.approved(news.article(noon.minusSeconds(1800), noon.minusSeconds(60)), null, noon);
    }

    @Test
    void theReportIsATableAndJson() throws Exception {
        CliRunner.Run run = cli.run("due", "report", "--days", "3", "--zone", "UTC");
        assertThat(run.code()).as(run.err()).isZero();
        assertThat(run.out()).contains("DAY (UTC)").contains("P50");
        assertThat(run.out().lines().filter(l -> l.startsWith(twoDaysAgo.toString())).toList()).singleElement().satisfies(l ->
                assertThat(l.split("\\s{2,}")).containsExactly(twoDaysAgo.toString(), "news", "-", "3", "2", "50% (1 of 2)", "20 min",
                        "30 min"));
        assertThat(run.out()).contains("all 3 days");

        JsonNode json = new ObjectMapper().readTree(cli.run("due", "report", "--days", "3", "--zone", "UTC", "--json").out());
        assertThat(json.get("zone").asText()).isEqualTo("UTC");
        assertThat(json.get("days")).hasSize(3);
        JsonNode row = json.get("rows").get(0);
        assertThat(row.get("day").asText()).isEqualTo(twoDaysAgo.toString());
        assertThat(row.get("decisions").asInt()).isEqualTo(3);
        assertThat(row.get("shareInTime").asDouble()).isEqualTo(0.5);
        assertThat(row.get("p50Seconds").asLong()).isEqualTo(1200);
        assertThat(row.get("p90Seconds").asLong()).isEqualTo(1800);
        assertThat(row.get("stage").isNull()).isTrue();
        assertThat(row.get("throughDesk").asBoolean(true)).as("a desk without stages has no through-the-desk row").isFalse();
        assertThat(json.get("wholeSpan")).hasSize(1);
        assertThat(cli.run("due", "report", "--days", "1", "--zone", "UTC").out()).contains("No decisions today.");
    }

    @Test
    void anEditorIsRefusedAndWrongDaysChangeNothing() {
        AccountAdministration accounts = new AccountAdministration(dsl);
        accounts.createAccount("rp_cli_ed", "ed-rp-secret-1".toCharArray());
        try {
            CliRunner.Run refused = cli.as("rp_cli_ed", "ed-rp-secret-1").run("due", "report");
            assertThat(refused.code()).isEqualTo(1);
            assertThat(refused.err().strip()).startsWith("copydesk: ").doesNotContain("\n");
        } finally {
            accounts.dropAccount("rp_cli_ed");
        }
        assertThat(cli.run("due", "report", "--days", "32").code()).isEqualTo(2);
        assertThat(cli.run("due", "report", "--days", "0").code()).isEqualTo(2);
        assertThat(cli.run("due", "report", "--desk", "nowhere").code()).isEqualTo(1);
    }
}
