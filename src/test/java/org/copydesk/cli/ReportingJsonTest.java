package org.copydesk.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.db.schema.Tables.ARTICLE;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.copydesk.db.schema.enums.ArticleStatus;
import org.copydesk.lease.ServerClock;
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
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code --json} on the commands that report (waiting, relay status, editors list): one JSON object
 * on one line in the documented shape, parsed here as a script would; and their usage mistakes end
 * with exit code 2.
 */
@ExtendWith(DatabaseExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ReportingJsonTest {

    private final TestDatabase db;
    private final DSLContext dsl;
    private final CliRunner cli;
    private long overdueArticle;

    ReportingJsonTest(TestDatabase db) {
        this.db = db;
        this.dsl = db.dsl();
        this.cli = new CliRunner(db);
    }

    @BeforeAll
    void newsroom() {
        Fixtures.emptyNewsroom(dsl);
        Newsroom newsroom = new Newsroom(dsl);
        newsroom.addDesk("news", "News", Duration.ofMinutes(30));
        newsroom.addDesk("legal", "Legal", Duration.ofMinutes(30));
        newsroom.addEditor("ann", "Ann Berg", Role.EDITOR, 5, List.of("news"));
        Fixtures.articles(dsl, "news", 1, 3, -60);
        ReviewSession services = new ReviewSession(db.database(), ReviewSession.Options.defaults());
        HeldArticle held = services.queue().claim("ann").articles().get(0);
        services.decisions().submit(new DecisionRequest(UUID.randomUUID(), held.id(), held.lease(), Verdict.APPROVE, ""));
        overdueArticle = Fixtures.articles(dsl, "legal", 2, 3, -60).get(0);
        dsl.update(ARTICLE).set(ARTICLE.STATUS, ArticleStatus.awaiting_writer).set(ARTICLE.DECIDED_BY, "ann")
                .set(ARTICLE.DECISION_NOTE, "Check the names")
                .set(ARTICLE.DECIDED_AT, ServerClock.plus(ServerClock.now(), Duration.ofDays(-5)))
                .where(ARTICLE.DESK_ID.eq("legal")).and(ARTICLE.ID.eq(overdueArticle)).execute();
        dsl.update(ARTICLE).set(ARTICLE.STATUS, ArticleStatus.awaiting_writer).set(ARTICLE.DECIDED_BY, "ann")
                .set(ARTICLE.DECISION_NOTE, "Shorter").set(ARTICLE.DECIDED_AT, ServerClock.now())
                .where(ARTICLE.DESK_ID.eq("legal")).and(ARTICLE.ID.ne(overdueArticle)).execute();
    }

    @Test
    void waitingAsJsonKeepsItsOverdueExitCode() {
        CliRunner.Run run = cli.run("waiting", "--overdue", "3d", "--json");
        assertThat(run.code()).isEqualTo(ExitCode.SOME_OVERDUE.code());
        JsonNode json = run.onlyJson();
        assertThat(json.get("overdueAfterSeconds").asLong()).isEqualTo(3 * 24 * 3600);
        JsonNode legal = json.get("desks").get(0);
        assertThat(legal.get("desk").asText()).isEqualTo("legal");
        assertThat(legal.get("name").asText()).isEqualTo("Legal");
        assertThat(legal.get("waiting").asInt()).isEqualTo(2);
        assertThat(legal.get("overdue").asInt()).isEqualTo(1);
        assertThat(legal.get("oldestSince").asText()).endsWith("Z");
        JsonNode late = json.get("overdue").get(0);
        assertThat(late.get("articleId").asLong()).isEqualTo(overdueArticle);
        assertThat(late.get("sentBackBy").asText()).isEqualTo("ann");
        assertThat(late.get("notes").asText()).isEqualTo("Check the names");
        assertThat(late.get("since").asText()).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ");

        CliRunner.Run calm = cli.run("waiting", "--overdue", "30d", "--json");
        assertThat(calm.code()).isEqualTo(ExitCode.OK.code());
        assertThat(calm.onlyJson().get("overdue")).isEmpty();
    }

    @Test
    void statusCountsWhatWaitsForWritersAsSentBackAndWritesUtcTimesAsEveryJsonDoes() {
        // before: "sentBack": 0 on the desk where waiting listed 2, and "2026-11-29T04:30:00.123456" without the Z
        Fixtures.articles(dsl, "news", 2, 3, -60);
        assertThat(cli.run("claim", "--as", "ann").code()).isZero();
        JsonNode json = cli.run("status", "--json").onlyJson();
        JsonNode legal = null;
        for (JsonNode desk : json.get("desks")) {
            if (desk.get("desk").asText().equals("legal")) {
                legal = desk;
            }
        }
        assertThat(legal).isNotNull();
        int waitingForWriters = cli.run("waiting", "--json").onlyJson().get("desks").get(0).get("waiting").asInt();
        assertThat(legal.get("sentBack").asInt()).isEqualTo(waitingForWriters).isEqualTo(2);
        assertThat(json.get("leases")).isNotEmpty();
        for (JsonNode lease : json.get("leases")) {
            assertThat(lease.get("expiresAtUtc").asText()).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ");
        }
    }

    @Test
    void relayStatusAsJson() {
        CliRunner.Run run = cli.run("relay", "status", "--json");
        assertThat(run.code()).as(run.err()).isZero();
        JsonNode json = run.onlyJson();
        assertThat(json.get("delivered").asInt()).isZero();
        assertThat(json.get("waiting").asInt()).isEqualTo(1);
        assertThat(json.get("failed").asInt()).isZero();
        assertThat(json.get("relay").isNull()).as("no relay runs").isTrue();
        JsonNode waiting = json.get("undelivered").get(0);
        assertThat(waiting.get("cursor").asLong()).isPositive();
        assertThat(waiting.get("state").asText()).isEqualTo("waiting");
        assertThat(waiting.get("outcome").asText()).isEqualTo("approved");
        assertThat(waiting.get("desk").asText()).isEqualTo("news");
        assertThat(waiting.get("attempts").asInt()).isZero();
        assertThat(waiting.get("lastAttemptAt").isNull()).isTrue();
        assertThat(waiting.get("decidedAt").asText()).endsWith("Z");
    }

    @Test
    void editorsListAsJson() {
        JsonNode json = cli.run("editors", "list", "--json").onlyJson();
        JsonNode ann = json.get("editors").get(0);
        assertThat(ann.get("name").asText()).isEqualTo("ann");
        assertThat(ann.get("displayName").asText()).isEqualTo("Ann Berg");
        assertThat(ann.get("role").asText()).isEqualTo("editor");
        assertThat(ann.get("capacity").asInt()).isEqualTo(5);
        assertThat(ann.get("desks")).extracting(JsonNode::asText).containsExactly("news");
        assertThat(ann.has("lastSeenAt")).isTrue();
    }

    @Test
    void desksListAsJson() {
        JsonNode json = cli.run("desks", "list", "--json").onlyJson();
        assertThat(json.get("desks")).extracting(d -> d.get("desk").asText()).containsExactly("legal", "news");
        JsonNode news = json.get("desks").get(1);
        assertThat(news.get("name").asText()).isEqualTo("News");
        assertThat(news.get("leaseSeconds").asLong()).isEqualTo(30 * 60);
        assertThat(news.has("maxHoldSeconds")).isTrue();
    }

    @Test
    void claimAsJsonSaysWhatTheEditorHolds() {
        Fixtures.articles(dsl, "news", 2, 3, -60);
        JsonNode json = cli.run("claim", "--as", "ann", "--json").onlyJson();
        assertThat(json.get("editor").asText()).isEqualTo("ann");
        assertThat(json.get("capacity").asInt()).isEqualTo(5);
        JsonNode articles = json.get("articles");
        assertThat(articles).hasSize(json.get("refreshed").asInt() + json.get("claimed").asInt()).isNotEmpty();
        assertThat(articles.get(0).get("desk").asText()).isEqualTo("news");
        assertThat(articles.get(0).get("expiresAt").asText()).endsWith("Z");
        assertThat(articles.get(0).get("secondsLeft").asLong()).isPositive();
        assertThat(articles.get(0).has("token")).as("the lease token stays inside").isFalse();
    }

    @Test
    void usageMistakesEndWithTwoInEveryCommand() {
        for (String[] args : List.of(new String[] {"relay"}, new String[] {"relay", "retry"}, new String[] {"relay", "retry", "1",
                "--all-failed"}, new String[] {"relay", "status", "--limit", "-1"}, new String[] {"feed", "--since", "-1"},
                new String[] {"feed", "--limit", "0"}, new String[] {"waiting", "--overdue", "0s"},
                new String[] {"waiting", "--json=maybe"}, new String[] {"release-daemon", "--once", "--interval", "0s"},
                new String[] {"purge", "--older-than", "0d"}, new String[] {"integrations", "add", "cms", "--kind", "printer"})) {
            CliRunner.Run run = cli.run(args);
            assertThat(run.code()).as(String.join(" ", args) + ": " + run.err()).isEqualTo(ExitCode.USAGE.code());
            assertThat(run.err()).startsWith("copydesk: ").doesNotContain("Exception");
        }
    }
}
