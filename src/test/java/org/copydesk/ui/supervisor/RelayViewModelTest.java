package org.copydesk.ui.supervisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.db.schema.Tables.LEASE_EVENT;
import static org.copydesk.db.schema.Tables.OUTCOME_EVENT;
import static org.copydesk.db.schema.Tables.RELAY_LEASE;

import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.List;
import java.util.UUID;
import org.copydesk.db.schema.enums.OutcomeEventDelivery;
import org.copydesk.review.DecisionRequest;
import org.copydesk.review.Editor;
import org.copydesk.review.HeldArticle;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.Verdict;
import org.copydesk.review.outcomes.RelayState;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.ManualTicker;
import org.copydesk.testing.TestDatabase;
import org.copydesk.ui.common.TaskExecutor;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The Relay tab's view model against the real database: outcomes come from decisions made through
 * the review services; one delivery is failed and one delivered as the relay would leave them.
 */
@ExtendWith(DatabaseExtension.class)
class RelayViewModelTest {

    private final DSLContext dsl;
    private final ReviewSession services;
    private final ManualTicker ticker = new ManualTicker();
    private final java.util.ArrayList<DashboardViewModel> models = new java.util.ArrayList<>();
    private Editor sue;
    private List<Long> cursors;

    RelayViewModelTest(TestDatabase db) {
        this.dsl = db.dsl();
        this.services = new ReviewSession(db.database(), ReviewSession.Options.defaults());
    }

    @BeforeEach
    void threeOutcomesOneDeliveredOneFailedOneWaiting() {
        dsl.deleteFrom(OUTCOME_EVENT).execute();
        dsl.update(RELAY_LEASE).setNull(RELAY_LEASE.HOLDER).setNull(RELAY_LEASE.EXPIRES_AT).execute();
        sue = NewsroomCast.on(services, dsl).desks("news").ann("news").sue("news");
        Fixtures.articles(dsl, "news", 3, 3, -60);
        List<HeldArticle> held = services.queue().claim("ann").articles();
        services.decisions().submit(new DecisionRequest(UUID.randomUUID(), held.get(0).id(), held.get(0).lease(), Verdict.APPROVE, ""));
        services.decisions().submit(new DecisionRequest(UUID.randomUUID(), held.get(1).id(), held.get(1).lease(), Verdict.REJECT,
                "Duplicate"));
        services.decisions().submit(new DecisionRequest(UUID.randomUUID(), held.get(2).id(), held.get(2).lease(),
                Verdict.SEND_BACK, "Check the quotes"));
        cursors = dsl.select(OUTCOME_EVENT.ID).from(OUTCOME_EVENT).orderBy(OUTCOME_EVENT.ID).fetch(OUTCOME_EVENT.ID);
        assertThat(cursors).hasSize(3);
        // as the relay leaves them: the first delivered, the second failed after its attempts
        LocalDateTime lastAttempt = LocalDateTime.of(2026, 3, 2, 9, 15);
        dsl.update(OUTCOME_EVENT).set(OUTCOME_EVENT.DELIVERY, OutcomeEventDelivery.delivered).set(OUTCOME_EVENT.ATTEMPTS, 1)
                .where(OUTCOME_EVENT.ID.eq(cursors.get(0))).execute();
        dsl.update(OUTCOME_EVENT).set(OUTCOME_EVENT.DELIVERY, OutcomeEventDelivery.failed).set(OUTCOME_EVENT.ATTEMPTS, 12)
                .set(OUTCOME_EVENT.LAST_ATTEMPT_AT, lastAttempt).setNull(OUTCOME_EVENT.NEXT_ATTEMPT_AT)
                .set(OUTCOME_EVENT.LAST_ANSWER, "HTTP 422: {\"error\": \"unknown desk\", \"detail\": \"the CMS has no section"
                        + " called news; map it first\"}")
                .where(OUTCOME_EVENT.ID.eq(cursors.get(1))).execute();
    }

    @AfterEach
    void close() {
        models.forEach(DashboardViewModel::close);
    }

    private DashboardViewModel dashboard(Editor who) {
        DashboardViewModel model = new DashboardViewModel(services, TaskExecutor.sameThread(), ticker, who,
                DashboardViewModel.Settings.defaults(), ZoneId.of("Europe/Warsaw"));
        models.add(model);
        model.start();
        return model;
    }

    @Test
    void showsTheCountsThatNoRelayRunsAndTheUndeliveredOutcomesFailedFirstWithTheAnswerInFull() {
        RelayViewModel relay = dashboard(sue).relay();

        assertThat(relay.countsProperty().get()).isEqualTo(new RelayState.Counts(1, 1, 1));
        assertThat(relay.runningRelayProperty().get()).startsWith("None \u2014 outcomes wait");
        assertThat(relay.rows()).extracting(RelayViewModel.Row::cursor).containsExactly(cursors.get(1), cursors.get(2));
        RelayViewModel.Row failed = relay.rows().get(0);
        assertThat(failed.failed()).isTrue();
        assertThat(failed.state()).isEqualTo("failed");
        assertThat(failed.outcome()).isEqualTo("rejected");
        var article = dsl.select(org.copydesk.db.schema.Tables.ARTICLE.TITLE, OUTCOME_EVENT.EXTERNAL_ID).from(OUTCOME_EVENT)
                .join(org.copydesk.db.schema.Tables.ARTICLE).on(org.copydesk.db.schema.Tables.ARTICLE.ID.eq(OUTCOME_EVENT.ARTICLE_ID))
                .where(OUTCOME_EVENT.ID.eq(cursors.get(1))).fetchOne();
        assertThat(failed.article()).isEqualTo(article.value1() + " (" + article.value2() + ")").startsWith("Article ");
        assertThat(failed.desk()).isEqualTo("News");
        assertThat(failed.attempts()).isEqualTo(12);
        assertThat(failed.lastAttempt()).as("on this PC's clock (UTC+1 in March)").isEqualTo("2 Mar 2026, 10:15");
        assertThat(failed.nextAttempt()).isEqualTo("\u2014 (until retried)");
        RelayViewModel.Row waiting = relay.rows().get(1);
        assertThat(waiting.failed()).isFalse();
        assertThat(waiting.outcome()).isEqualTo("changes_requested");
        assertThat(waiting.lastAttempt()).isEqualTo("never");

        relay.selectedProperty().set(failed);
        assertThat(relay.selectedAnswer().get()).isEqualTo("HTTP 422: {\"error\": \"unknown desk\", \"detail\": \"the CMS has no"
                + " section called news; map it first\"}");
        assertThat(relay.canRetrySelected().get()).isTrue();
        relay.selectedProperty().set(waiting);
        assertThat(relay.canRetrySelected().get()).as("only failed outcomes are sent again").isFalse();
        assertThat(relay.selectedAnswer().get()).isEqualTo("The receiver has not answered this outcome yet.");
    }

    @Test
    void saysWhichRelayDeliversAndReadsAgainAtTheDashboardsCadenceWhileShown() {
        DashboardViewModel dashboard = dashboard(sue);
        RelayViewModel relay = dashboard.relay();
        dsl.update(RELAY_LEASE).set(RELAY_LEASE.HOLDER, "cms-relay@wire-01")
                .set(RELAY_LEASE.EXPIRES_AT, DSL.field("UTC_TIMESTAMP(6) + INTERVAL 1 MINUTE", LocalDateTime.class)).execute();
        dashboard.opened(DashboardTab.HOLDERS);

        ticker.advance(Duration.ofSeconds(2));
        assertThat(relay.runningRelayProperty().get()).as("another tab is shown: read seldom").startsWith("None");

        dashboard.opened(DashboardTab.RELAY);
        assertThat(relay.runningRelayProperty().get()).startsWith("cms-relay@wire-01");
        dsl.update(OUTCOME_EVENT).set(OUTCOME_EVENT.DELIVERY, OutcomeEventDelivery.delivered).where(OUTCOME_EVENT.ID.eq(cursors.get(2)))
                .execute();
        ticker.advance(DashboardViewModel.Settings.defaults().refreshInterval());
        assertThat(relay.countsProperty().get()).isEqualTo(new RelayState.Counts(2, 0, 1));
        assertThat(relay.rows()).extracting(RelayViewModel.Row::cursor).containsExactly(cursors.get(1));
    }

    @Test
    void retryingTheSelectedFailedOutcomeSendsItAgainAndWritesTheHistory() {
        DashboardViewModel dashboard = dashboard(sue);
        RelayViewModel relay = dashboard.relay();
        relay.selectedProperty().set(relay.rows().get(0));

        relay.retrySelected();

        assertThat(relay.actionErrorProperty().get()).isEmpty();
        assertThat(relay.countsProperty().get()).isEqualTo(new RelayState.Counts(1, 2, 0));
        assertThat(relay.rows()).extracting(RelayViewModel.Row::state).containsExactly("waiting", "waiting");
        assertThat(relay.canRetryAll().get()).isFalse();
        assertThat(dsl.fetchValue(OUTCOME_EVENT.ATTEMPTS, OUTCOME_EVENT.ID.eq(cursors.get(1)))).isZero();
        assertThat(dsl.fetchCount(LEASE_EVENT, LEASE_EVENT.ACTION.eq("relay_retry"))).isEqualTo(1);
        assertThat(dashboard.notices().get(0).text()).isEqualTo("Outcome " + cursors.get(1)
                + " will be sent again; a running relay picks it up at once.");
    }

    @Test
    void aRetryTheDatabaseRefusesSaysWhyNextToTheButtonsAndChangesNothing() {
        RelayViewModel relay = dashboard(sue).relay();
        relay.selectedProperty().set(relay.rows().get(0));
        services.relayState().retry(null); // another supervisor was quicker

        relay.retrySelected();

        assertThat(relay.actionErrorProperty().get()).isEqualTo("This outcome event has not failed; only failed ones are sent again.");
        assertThat(relay.actingProperty().get()).isFalse();
        assertThat(dsl.fetchCount(LEASE_EVENT, LEASE_EVENT.ACTION.eq("relay_retry"))).isEqualTo(1);
        relay.selectedProperty().set(null);
        assertThat(relay.actionErrorProperty().get()).as("a new selection clears it").isEmpty();
    }

    @Test
    void retryAllFailedSendsEveryFailedOneAgain() {
        dsl.update(OUTCOME_EVENT).set(OUTCOME_EVENT.DELIVERY, OutcomeEventDelivery.failed).set(OUTCOME_EVENT.ATTEMPTS, 12)
                .where(OUTCOME_EVENT.ID.eq(cursors.get(2))).execute();
        DashboardViewModel dashboard = dashboard(sue);
        RelayViewModel relay = dashboard.relay();
        assertThat(relay.countsProperty().get().failed()).isEqualTo(2);
        assertThat(relay.canRetryAll().get()).isTrue();

        relay.retryAllFailed();

        assertThat(relay.countsProperty().get()).isEqualTo(new RelayState.Counts(1, 2, 0));
        assertThat(dashboard.notices().get(0).text()).isEqualTo("2 failed outcomes will be sent again; a running relay picks"
                + " them up at once.");
    }

    @Test
    void anEditorSeesTheStateButCannotRetry() {
        Editor ann = services.newsroom().editors().stream().filter(e -> e.id().equals("ann")).findFirst().orElseThrow();
        RelayViewModel relay = dashboard(ann).relay();
        relay.selectedProperty().set(relay.rows().get(0));

        assertThat(relay.mayRetry()).isFalse();
        assertThat(relay.canRetrySelected().get()).isFalse();
        assertThat(relay.canRetryAll().get()).isFalse();
        relay.retryAllFailed();
        assertThat(dsl.fetchValue(OUTCOME_EVENT.DELIVERY, OUTCOME_EVENT.ID.eq(cursors.get(1)))).isEqualTo(OutcomeEventDelivery.failed);
    }

    @Test
    void theExportHasOneLinePerUndeliveredOutcome() {
        TableSnapshot s = dashboard(sue).snapshot(DashboardTab.RELAY);
        assertThat(s.rows()).hasSize(2).allSatisfy(r -> assertThat(r).hasSameSizeAs(s.headers()));
        assertThat(s.rows().get(0)).contains("failed", "rejected");
    }
}
