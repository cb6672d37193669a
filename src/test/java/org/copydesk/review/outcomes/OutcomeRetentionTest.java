package org.copydesk.review.outcomes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.copydesk.db.schema.Tables.OUTCOME_EVENT;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.copydesk.db.schema.enums.OutcomeEventDelivery;
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
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Old delivered outcomes leave the outbox; what still waits for delivery stays unless asked. */
@ExtendWith(DatabaseExtension.class)
class OutcomeRetentionTest {

    private final DSLContext dsl;
    private final ReviewSession session;
    private final OutcomeRetention retention;

    OutcomeRetentionTest(TestDatabase db) {
        this.dsl = db.dsl();
        this.session = new ReviewSession(db.database(), ReviewSession.Options.defaults());
        this.retention = new OutcomeRetention(dsl);
    }

    @BeforeEach
    void fourOutcomes() {
        dsl.deleteFrom(OUTCOME_EVENT).execute();
        Fixtures.emptyNewsroom(dsl);
        Newsroom n = session.newsroom();
        n.addDesk("news", "News", Duration.ofMinutes(30));
        n.addEditor("ann", "Ann", Role.EDITOR, 5, List.of("news"));
        Fixtures.articles(dsl, "news", 4, 3, -60);
        for (HeldArticle a : session.queue().claim("ann").articles()) {
            session.decisions().submit(new DecisionRequest(UUID.randomUUID(), a.id(), a.lease(), Verdict.APPROVE, ""));
        }
    }

    /** The first {@code count} outcomes, in feed order, get {@code delivery} and a decision 40 days ago. */
    private void makeOld(int count, OutcomeEventDelivery delivery) {
        List<Long> ids = dsl.select(OUTCOME_EVENT.ID).from(OUTCOME_EVENT).where(OUTCOME_EVENT.DECIDED_AT.gt(
                ServerClock.plus(ServerClock.now(), Duration.ofDays(-30)))).orderBy(OUTCOME_EVENT.ID).limit(count)
                .fetch(OUTCOME_EVENT.ID);
        dsl.update(OUTCOME_EVENT).set(OUTCOME_EVENT.DELIVERY, delivery)
                .set(OUTCOME_EVENT.DECIDED_AT, ServerClock.plus(ServerClock.now(), Duration.ofDays(-40)))
                .where(OUTCOME_EVENT.ID.in(ids)).execute();
    }

    @Test
    void onlyOldDeliveredOutcomesLeaveByDefault() {
        makeOld(1, OutcomeEventDelivery.delivered);
        makeOld(1, OutcomeEventDelivery.waiting);
        makeOld(1, OutcomeEventDelivery.failed);
        long newest = session.outcomeFeed().since(0, 10).get(3).cursor();

        assertThat(retention.purgeOlderThan(Duration.ofDays(30), OutcomeRetention.Scope.DELIVERED)).isEqualTo(1);
        assertThat(dsl.fetchCount(OUTCOME_EVENT)).isEqualTo(3);
        assertThat(dsl.fetchCount(OUTCOME_EVENT, OUTCOME_EVENT.DELIVERY.eq(OutcomeEventDelivery.delivered))).isZero();
        // a reader's cursor stays valid: the feed goes on after it
        assertThat(session.outcomeFeed().since(newest - 1, 10)).extracting(OutcomeEvent::cursor).containsExactly(newest);
    }

    @Test
    void aNewsroomWithoutRelayMayPurgeEveryOldOutcome() {
        makeOld(2, OutcomeEventDelivery.waiting);

        assertThat(retention.purgeOlderThan(Duration.ofDays(30), OutcomeRetention.Scope.EVERY_OUTCOME)).isEqualTo(2);
        assertThat(dsl.fetchCount(OUTCOME_EVENT)).isEqualTo(2); // the recent ones stay
        assertThat(retention.purgeOlderThan(Duration.ofDays(30), OutcomeRetention.Scope.EVERY_OUTCOME)).isZero();
    }

    @Test
    void aPurgeNeedsAPositiveAge() {
        assertThatThrownBy(() -> retention.purgeOlderThan(Duration.ZERO, OutcomeRetention.Scope.DELIVERED))
                .hasMessage("The age to purge must be positive.");
        assertThat(dsl.fetchCount(OUTCOME_EVENT)).isEqualTo(4);
    }
}
