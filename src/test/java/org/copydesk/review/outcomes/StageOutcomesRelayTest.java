package org.copydesk.review.outcomes;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.copydesk.db.Database;
import org.copydesk.db.schema.Tables;
import org.copydesk.review.AccountAdministration;
import org.copydesk.review.DecisionOutcome;
import org.copydesk.review.DecisionRequest;
import org.copydesk.review.HeldArticle;
import org.copydesk.review.Newsroom;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.ReviewStages;
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
 * Other systems follow a desk's chain: each stage step is one event in the feed and the webhook
 * (stage_passed, stage_returned, with the stage and where the article went), and the final
 * decision's event has exactly the form it has on a desk without stages. Today's receiver (the
 * stand-in CMS, written for the outcomes before stages) takes every event of the chain, once, in
 * order per article.
 */
@ExtendWith(DatabaseExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class StageOutcomesRelayTest {

    private static final String RELAY_ACCOUNT = ("rl_" + ProcessHandle.current().pid() + "_stg");

    private final TestDatabase db;
    private final DSLContext dsl;
    private final ReviewSession session;
    private Database relayDb;

    StageOutcomesRelayTest(TestDatabase db) {
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
        n.addDesk("sport", "Sport", Duration.ofMinutes(30));
        n.addEditor("ann", "Ann", Role.EDITOR, 4, List.of("news", "sport"));
        n.addEditor("bob", "Bob", Role.EDITOR, 4, List.of("news"));
        n.addEditor("lee", "Lee", Role.EDITOR, 4, List.of());
        ReviewStages stages = session.stages();
        stages.set(null, new ReviewStages.Settings("news", "copy", "Copy edit", null, null, false, false, false));
        stages.set(null, new ReviewStages.Settings("news", "legal", "Legal", null, null, true, false, true));
        stages.set(null, new ReviewStages.Settings("news", "signoff", "Sign-off", null, null, false, true, false));
        stages.setTakers(null, "news", "legal", List.of("lee"));
    }

    @AfterAll
    void dropRelayAccount() {
        relayDb.close();
        new AccountAdministration(dsl).dropIntegrationAccount(RELAY_ACCOUNT);
    }

    private void decideAll(String editor, Verdict verdict, String toStage, List<String> ask) {
        for (HeldArticle a : session.queue().claim(editor).articles()) {
            DecisionOutcome d = session.decisions().submit(new DecisionRequest(UUID.randomUUID(), a.id(), a.lease(), verdict,
                    verdict == Verdict.APPROVE ? "" : "notes for " + a.id(), toStage, "news".equals(a.desk()) ? ask : List.of()));
            assertThat(d).isInstanceOf(DecisionOutcome.Recorded.class);
        }
    }

    @Test
    void everyStageStepIsOneEventTheFinalOneUnchangedAndTodaysReceiverTakesThemAll() throws Exception {
        Fixtures.articles(dsl, "news", 3, 3, -60);
        Fixtures.articles(dsl, "sport", 1, 3, -60);
        decideAll("ann", Verdict.APPROVE, null, List.of("legal")); // news: copy -> legal; sport: approved, as before
        decideAll("lee", Verdict.APPROVE, null, List.of()); // legal -> signoff
        decideAll("bob", Verdict.SEND_BACK, "copy", List.of()); // signoff -> back to copy, a new pass
        decideAll("ann", Verdict.APPROVE, null, List.of()); // copy -> legal (still asked for)
        decideAll("lee", Verdict.APPROVE, null, List.of());
        decideAll("bob", Verdict.APPROVE, null, List.of()); // signed off: approved

        List<OutcomeEvent> feed = new OutcomeFeed(dsl).since(0, 1000);
        assertThat(feed).extracting(OutcomeEvent::outcome).containsOnly("stage_passed", "stage_returned", "approved")
                .filteredOn("approved"::equals).hasSize(4);
        OutcomeEvent returned = feed.stream().filter(e -> e.outcome().equals("stage_returned")).findFirst().orElseThrow();
        assertThat(OutcomeJson.of(returned)).contains("\"stage\":\"signoff\",\"to_stage\":\"copy\"}");
        Set<String> keysWithoutStages = keys(feed.stream().filter(e -> e.desk().equals("sport")).findFirst().orElseThrow());
        assertThat(feed).filteredOn(e -> e.outcome().equals("approved"))
                .allSatisfy(e -> assertThat(keys(e)).as("the final event's form").isEqualTo(keysWithoutStages));
        assertThat(keysWithoutStages).doesNotContain("stage", "to_stage");

        TodaysReceiver.takesEveryEventOnce(relayDb, session.relayState(), feed, "stage-relay");
        assertThat(dsl.fetchCount(Tables.OUTCOME_EVENT, Tables.OUTCOME_EVENT.DELIVERY.ne(
                org.copydesk.db.schema.enums.OutcomeEventDelivery.delivered))).isZero();
    }

    /** The field names of the event's JSON (its values here hold no quote). */
    private static Set<String> keys(OutcomeEvent e) {
        return java.util.regex.Pattern.compile("\"([a-z_]+)\":").matcher(OutcomeJson.of(e)).results().map(m -> m.group(1))
                .collect(java.util.stream.Collectors.toSet());
    }
}
