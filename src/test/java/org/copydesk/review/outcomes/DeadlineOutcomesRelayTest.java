package org.copydesk.review.outcomes;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.copydesk.db.Database;
import org.copydesk.db.schema.Tables;
import org.copydesk.lease.ServerClock;
import org.copydesk.review.AccountAdministration;
import org.copydesk.review.DecisionOutcome;
import org.copydesk.review.DecisionRequest;
import org.copydesk.review.DueTimes;
import org.copydesk.review.ForecastDesk;
import org.copydesk.review.HeldArticle;
import org.copydesk.review.Newsroom;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.Role;
import org.copydesk.review.Verdict;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.TestDatabase;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * deadline_missed and deadline_at_risk go out the way every outcome does (docs/integration.md): in the feed and the
 * webhook, signed, keyed, delivered once, in order per article, with the fields every event has
 * first and the stage and the due time after them; the final decision that follows has exactly the
 * form it always had. Today's receiver (the stand-in CMS, written before deadlines) takes them all.
 */
@ExtendWith(DatabaseExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DeadlineOutcomesRelayTest {

    private static final String RELAY_ACCOUNT = ("rl_" + ProcessHandle.current().pid() + "_due");

    private final TestDatabase db;
    private final DSLContext dsl;
    private final ReviewSession session;
    private Database relayDb;

    DeadlineOutcomesRelayTest(TestDatabase db) {
        this.db = db;
        this.dsl = db.dsl();
        this.session = new ReviewSession(db.database(), ReviewSession.Options.defaults());
    }

    @BeforeAll
    void newsroomAndRelay() {
        relayDb = TodaysReceiver.relayAccount(db, RELAY_ACCOUNT);
        Fixtures.emptyNewsroom(dsl);
        Newsroom n = session.newsroom();
        n.addDesk("news", "News", Duration.ofMinutes(30));
        n.addEditor("ann", "Ann", Role.EDITOR, 4, List.of("news"));
        n.addEditor("sue", "Sue", Role.SUPERVISOR, 4, List.of("news"));
    }

    @AfterAll
    void dropRelayAccount() {
        relayDb.close();
        new AccountAdministration(dsl).dropIntegrationAccount(RELAY_ACCOUNT);
    }

    @Test
    void aMissedDeadlineIsOneSignedEventBeforeTheDecisionAndTodaysReceiverTakesBothOnce() throws Exception {
        List<Long> ids = Fixtures.articles(dsl, "news", 3, 3, -60);
        Instant now = dsl.select(ServerClock.now()).fetchOne(0, LocalDateTime.class).toInstant(ZoneOffset.UTC)
                .truncatedTo(ChronoUnit.MILLIS);
        DueTimes due = session.dueTimes();
        due.set("sue", ids.get(0), now.minusSeconds(90), "the web edition");
        due.set("sue", ids.get(1), now.minusSeconds(30), "the web edition");
        // 12 decisions in the last hour: 300 s an article; the third in line, due in 200 s, is at risk
        new ForecastDesk(dsl, "news").decisions(null, 12, 10);
        due.set("sue", ids.get(2), now.plusSeconds(200), "the web edition");
        dsl.update(Tables.SWEEP_TURN).set(Tables.SWEEP_TURN.DUE_AT, LocalDateTime.of(2000, 1, 1, 0, 0)).execute();
        dsl.fetchMany("CALL take_sweep_turn(5000)");
        for (HeldArticle a : session.queue().claim("ann").articles()) {
            DecisionOutcome d = session.decisions().submit(new DecisionRequest(UUID.randomUUID(), a.id(), a.lease(), Verdict.APPROVE,
                    ""));
            assertThat(d).isInstanceOf(DecisionOutcome.Recorded.class);
        }

        List<OutcomeEvent> feed = new OutcomeFeed(dsl).since(0, 1000);
        assertThat(feed).extracting(OutcomeEvent::outcome).containsExactly("deadline_missed", "deadline_missed", "deadline_at_risk",
                "approved", "approved", "approved");
        OutcomeEvent missed = feed.get(0);
        assertThat(missed.articleId()).isEqualTo(ids.get(0));
        assertThat(missed.dueAt()).isEqualTo(LocalDateTime.ofInstant(now.minusSeconds(90), ZoneOffset.UTC));
        String json = OutcomeJson.of(missed);
        assertThat(json).contains("\"outcome\":\"deadline_missed\"").contains("\"editor\":\"\"")
                .endsWith(",\"stage\":null,\"due_at\":\"" + OutcomeJson.time(missed.dueAt()) + "\"}");
        Set<String> decisionKeys = keys(feed.get(3));
        assertThat(decisionKeys).doesNotContain("due_at", "stage");
        assertThat(keys(missed)).containsAll(decisionKeys);
        OutcomeEvent atRisk = feed.get(2);
        assertThat(atRisk.articleId()).isEqualTo(ids.get(2));
        assertThat(keys(atRisk)).as("the same shape as deadline_missed").isEqualTo(keys(missed));
        assertThat(OutcomeJson.of(atRisk)).contains("\"outcome\":\"deadline_at_risk\"").contains("\"editor\":\"\"")
                .contains("at the current pace (3 in line, not held)")
                .endsWith(",\"stage\":null,\"due_at\":\"" + OutcomeJson.time(atRisk.dueAt()) + "\"}");

        TodaysReceiver.takesEveryEventOnce(relayDb, session.relayState(), feed, "deadline-relay");
    }

    private static Set<String> keys(OutcomeEvent e) {
        return java.util.regex.Pattern.compile("\"([a-z_]+)\":").matcher(OutcomeJson.of(e)).results().map(m -> m.group(1))
                .collect(java.util.stream.Collectors.toSet());
    }
}
