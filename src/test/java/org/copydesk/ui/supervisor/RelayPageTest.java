package org.copydesk.ui.supervisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.db.schema.Tables.OUTCOME_EVENT;
import static org.copydesk.db.schema.Tables.RELAY_LEASE;

import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import java.util.UUID;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.TableCell;
import javafx.scene.control.TextArea;
import org.copydesk.db.schema.enums.OutcomeEventDelivery;
import org.copydesk.review.DecisionRequest;
import org.copydesk.review.Editor;
import org.copydesk.review.HeldArticle;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.Role;
import org.copydesk.review.Verdict;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.ManualTicker;
import org.copydesk.testing.TestDatabase;
import org.copydesk.ui.common.TaskExecutor;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

/** The Relay tab on screen (headless, Monocle): the counts, the failed row's answer, and Retry through to the database. */
@ExtendWith(DatabaseExtension.class)
class RelayPageTest {

    private final DSLContext dsl;
    private final ReviewSession services;
    private final FxRobot robot = new FxRobot();
    private List<Long> cursors;
    private DashboardViewModel model;
    private DashboardOnScreen screen;

    RelayPageTest(TestDatabase db) {
        this.dsl = db.dsl();
        this.services = new ReviewSession(db.database(), ReviewSession.Options.defaults());
    }

    @BeforeEach
    void show() throws Exception {
        dsl.deleteFrom(OUTCOME_EVENT).execute();
        dsl.update(RELAY_LEASE).setNull(RELAY_LEASE.HOLDER).setNull(RELAY_LEASE.EXPIRES_AT).execute();
        Fixtures.emptyNewsroom(dsl);
        services.newsroom().addDesk("news", "News", Duration.ofMinutes(30));
        services.newsroom().addEditor("ann", "Ann Kowalski", Role.EDITOR, 3, List.of("news"));
        Editor sue = services.newsroom().addEditor("sue", "Sue Lindqvist", Role.SUPERVISOR, 5, List.of("news"));
        Fixtures.articles(dsl, "news", 3, 3, -60);
        for (HeldArticle a : services.queue().claim("ann").articles()) {
            services.decisions().submit(new DecisionRequest(UUID.randomUUID(), a.id(), a.lease(), Verdict.APPROVE, ""));
        }
        cursors = dsl.select(OUTCOME_EVENT.ID).from(OUTCOME_EVENT).orderBy(OUTCOME_EVENT.ID).fetch(OUTCOME_EVENT.ID);
        dsl.update(OUTCOME_EVENT).set(OUTCOME_EVENT.DELIVERY, OutcomeEventDelivery.delivered)
                .where(OUTCOME_EVENT.ID.eq(cursors.get(0))).execute();
        dsl.update(OUTCOME_EVENT).set(OUTCOME_EVENT.DELIVERY, OutcomeEventDelivery.failed).set(OUTCOME_EVENT.ATTEMPTS, 12)
                .set(OUTCOME_EVENT.LAST_ANSWER, "HTTP 503: busy").where(OUTCOME_EVENT.ID.eq(cursors.get(1))).execute();
        model = new DashboardViewModel(services, TaskExecutor.sameThread(), new ManualTicker(), sue,
                DashboardViewModel.Settings.defaults(), ZoneId.of("UTC"));
        screen = DashboardOnScreen.show(model, DashboardTab.RELAY);
    }

    @AfterEach
    void close() throws Exception {
        screen.close();
    }

    private String text(String id) {
        return robot.lookup(id).queryAs(Label.class).getText();
    }

    private Node cell(String text) {
        return robot.lookup("#relay-undelivered").lookup((Node n) -> n instanceof TableCell<?, ?> c && text.equals(c.getText()))
                .query();
    }

    @Test
    void showsTheCountsAndRetryOfTheSelectedFailedOutcomeCallsThroughToTheDatabase() {
        assertThat(List.of(text("#relay-delivered"), text("#relay-waiting"), text("#relay-failed"))).containsExactly("1", "1", "1");
        assertThat(robot.lookup("#relay-failed").query().getPseudoClassStates()).contains(RelayPage.FAILED);
        assertThat(text("#relay-running")).startsWith("None \u2014 outcomes wait");
        Button retry = robot.lookup("#relay-retry-selected").queryButton();
        assertThat(retry.isDisabled()).as("nothing selected").isTrue();

        robot.clickOn(cell("waiting"));
        assertThat(retry.isDisabled()).as("a waiting outcome is not retried").isTrue();
        Node failedCell = cell("failed");
        assertThat(failedCell.getPseudoClassStates()).contains(RelayPage.FAILED);
        robot.clickOn(failedCell);
        assertThat(robot.lookup("#relay-answer").queryAs(TextArea.class).getText()).isEqualTo("HTTP 503: busy");
        robot.clickOn(retry);
        WaitForAsyncUtils.waitForFxEvents();

        assertThat(dsl.fetchValue(OUTCOME_EVENT.DELIVERY, OUTCOME_EVENT.ID.eq(cursors.get(1)))).isEqualTo(OutcomeEventDelivery.waiting);
        assertThat(List.of(text("#relay-delivered"), text("#relay-waiting"), text("#relay-failed"))).containsExactly("1", "2", "0");
        assertThat(robot.lookup("#relay-retry-all").queryButton().isDisabled()).as("nothing failed any more").isTrue();
        assertThat(robot.lookup("#relay-retry-error").queryAs(Label.class).isVisible()).isFalse();
    }

    @Test
    void retryAllFailedCallsThroughAndARefusalShowsBesideTheButtons() {
        robot.clickOn(cell("failed"));
        services.relayState().retry(null); // someone else sent it again after the screen read it
        robot.clickOn("#relay-retry-selected");
        WaitForAsyncUtils.waitForFxEvents();
        Label refusal = robot.lookup("#relay-retry-error").queryAs(Label.class);
        assertThat(refusal.isVisible()).isTrue();
        assertThat(refusal.getText()).isEqualTo("This outcome event has not failed; only failed ones are sent again.");

        dsl.update(OUTCOME_EVENT).set(OUTCOME_EVENT.DELIVERY, OutcomeEventDelivery.failed).execute();
        robot.clickOn("#dashboard-refresh");
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(text("#relay-failed")).isEqualTo("3");
        robot.clickOn("#relay-retry-all");
        WaitForAsyncUtils.waitForFxEvents();

        assertThat(dsl.fetchCount(OUTCOME_EVENT, OUTCOME_EVENT.DELIVERY.eq(OutcomeEventDelivery.waiting))).isEqualTo(3);
        assertThat(text("#relay-failed")).isEqualTo("0");
    }
}
