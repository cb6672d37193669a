package org.copydesk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.util.List;
import org.copydesk.review.AccountAdministration;
import org.copydesk.review.ForecastDesk;
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
 * {@code copydesk due forecast} (docs/deadlines.md, "The forecast"): the database's forecast for a
 * supervisor, as a line, a table and JSON; an editor's account is refused in one line.
 */
@ExtendWith(DatabaseExtension.class)
class DueForecastCommandTest {

    private final DSLContext dsl;
    private final CliRunner cli;
    private long atRisk;

    DueForecastCommandTest(TestDatabase db) {
        this.dsl = db.dsl();
        this.cli = new CliRunner(db);
    }

    @BeforeEach
    void aDeskWithOneAtRisk() {
        Fixtures.emptyNewsroom(dsl);
        Newsroom n = new Newsroom(dsl);
        n.addDesk("news", "News", Duration.ofMinutes(30));
        n.addDesk("sport", "Sport", Duration.ofMinutes(30));
        n.addEditor("fc_cli_ed", "Ed", Role.EDITOR, 5, List.of("news"));
        ForecastDesk news = new ForecastDesk(dsl, "news");
        news.decisions(null, 12, 10); // 300 s an article
        news.article(3, null, 400);
        atRisk = news.article(3, null, 500);
        news.article(3, null, 1000);
    }

    @Test
    void theForecastIsALineATableAndJson() throws Exception {
        CliRunner.Run run = cli.run("due", "forecast", "--desk", "news", "--zone", "UTC");
        assertThat(run.code()).as(run.err()).isZero();
        List<String> lines = run.out().lines().toList();
        assertThat(lines.get(0))
                .matches("news: 1 of the 3 due by \\d\\d:\\d\\d will miss at the current pace \\(0 editors, 12 an hour\\)\\.");
        assertThat(run.out()).contains("AT RISK").contains("in time").contains("DUE (UTC)");

        JsonNode json = new ObjectMapper().readTree(cli.run("due", "forecast", "--json").out());
        assertThat(json.get("forecasts")).hasSize(2);
        JsonNode news = json.get("forecasts").get(0);
        assertThat(news.get("desk").asText()).isEqualTo("news");
        assertThat(news.get("atRisk").asInt()).isEqualTo(1);
        assertThat(news.get("perHour").asInt()).isEqualTo(12);
        assertThat(news.get("articles").get(1).get("articleId").asLong()).isEqualTo(atRisk);
        assertThat(news.get("articles").get(1).get("atRisk").asBoolean()).isTrue();
        assertThat(news.get("articles").get(1).get("position").asInt()).isEqualTo(2);
        assertThat(json.get("forecasts").get(1).get("perHour").isNull()).as("sport: no pace yet").isTrue();
        assertThat(json.get("forecasts").get(1).get("line").asText()).startsWith("nothing due by ");
    }

    @Test
    void anEditorIsRefusedAndAWrongWindowChangesNothing() {
        AccountAdministration accounts = new AccountAdministration(dsl);
        accounts.createAccount("fc_cli_ed", "ed-fc-secret-1".toCharArray());
        try {
            CliRunner.Run refused = cli.as("fc_cli_ed", "ed-fc-secret-1").run("due", "forecast", "--desk", "news");
            assertThat(refused.code()).isEqualTo(1);
            assertThat(refused.err().strip()).startsWith("copydesk: ").doesNotContain("\n")
                    .contains("Your account may not do this: it is for a supervisor or an admin");
        } finally {
            accounts.dropAccount("fc_cli_ed");
        }
        assertThat(cli.run("due", "forecast", "--within", "2d").code()).isEqualTo(2);
        assertThat(cli.run("due", "forecast", "--desk", "nowhere").code()).isEqualTo(1);
    }
}
