package org.copydesk.review;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.DECISION;
import static org.copydesk.db.schema.Tables.DESK;
import static org.copydesk.db.schema.Tables.EDITOR;
import static org.copydesk.db.schema.Tables.EDITOR_DESK;
import static org.copydesk.db.schema.Tables.LEASE_EVENT;

import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.copydesk.db.schema.enums.ArticleStatus;
import org.copydesk.lease.Lease;
import org.copydesk.lease.LostReason;
import org.copydesk.lease.ServerClock;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.TestDatabase;
import org.jooq.DSLContext;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The newsroom's rules, on the real database. */
@ExtendWith(DatabaseExtension.class)
class ReviewWorkflowTest {

    private final TestDatabase db;
    private final DSLContext dsl;
    private final ReviewSession session;

    ReviewWorkflowTest(TestDatabase db) {
        this.db = db;
        this.dsl = db.dsl();
        this.session = new ReviewSession(db.database(), ReviewSession.Options.defaults());
    }

    @BeforeEach
    void newsroom() {
        Fixtures.emptyNewsroom(dsl);
        Newsroom n = session.newsroom();
        n.addDesk("news", "News", Duration.ofMinutes(30));
        n.addDesk("sport", "Sport", Duration.ofMinutes(20));
        n.addDesk("legal", "Legal", Duration.ofMinutes(30));
        n.addEditor("ann", "Ann Kowalski", Role.EDITOR, 3, List.of("news", "sport"));
        n.addEditor("bob", "Bob Okafor", Role.EDITOR, 5, List.of("sport"));
        n.addEditor("sue", "Sue Lindqvist", Role.SUPERVISOR, 5, List.of("news", "sport", "legal"));
    }

    private List<Long> ids(Assignment a) {
        return a.articles().stream().map(HeldArticle::id).toList();
    }

    private DecisionOutcome decide(HeldArticle article, Verdict verdict, String notes) {
        return session.decisions().submit(new DecisionRequest(UUID.randomUUID(), article.id(), article.lease(), verdict, notes));
    }

    @Test
    void editorsOnlyReceiveArticlesFromTheirDesksUpToTheirCapacity() {
        Fixtures.articles(dsl, "legal", 5, 1, -60);
        List<Long> news = Fixtures.articles(dsl, "news", 2, 3, -60);
        List<Long> sport = Fixtures.articles(dsl, "sport", 4, 3, -30);

        Assignment ann = session.queue().claim("ann");

        assertThat(ann.articles()).hasSize(3);
        assertThat(ids(ann)).containsExactly(news.get(0), news.get(1), sport.get(0));
        assertThat(ann.articles()).allMatch(a -> !a.desk().equals("legal"));
        assertThat(session.queue().claim("ann").articles()).hasSize(3); // reload never exceeds capacity
    }

    @Test
    void eachDeskGivesItsOwnLeaseLength() {
        Fixtures.articles(dsl, "news", 1, 3, -60);
        Fixtures.articles(dsl, "sport", 1, 3, -60);

        Assignment ann = session.queue().claim("ann");

        for (HeldArticle a : ann.articles()) {
            Duration expected = a.desk().equals("news") ? Duration.ofMinutes(30) : Duration.ofMinutes(20);
            assertThat(a.lease().remainingAtRead()).isBetween(expected.minusSeconds(2), expected);
        }
    }

    @Test
    void embargoedArticlesAreInvisibleAndTheQueueSaysWhenTheNextOneComes() {
        Fixtures.articles(dsl, "news", 2, 1, 3600);
        Fixtures.articles(dsl, "sport", 1, 3, 1800);

        Assignment ann = session.queue().claim("ann");

        assertThat(ann.articles()).isEmpty();
        assertThat(ann.nextAvailableAt()).isPresent();
        assertThat(Duration.between(ann.serverTime(), ann.nextAvailableAt().get())).isBetween(Duration.ofMinutes(29), Duration.ofMinutes(31));
    }

    @Test
    void priorityFirstThenReturningWorkThenOldestFirst() {
        List<Long> old = Fixtures.articles(dsl, "news", 2, 3, -600);
        List<Long> urgent = Fixtures.articles(dsl, "news", 1, 1, -10);
        Assignment ann = session.queue().claim("ann");
        assertThat(ids(ann)).containsExactly(urgent.get(0), old.get(0), old.get(1));
        session.queue().release(ann.articles().get(2)); // old[1] comes back
        Fixtures.articles(dsl, "news", 1, 3, -3600); // fresh but older than everything

        Assignment bob = session.queue().claim("sue");

        assertThat(ids(bob).get(0)).isEqualTo(old.get(1));
    }

    @Test
    void aReleasedArticleComesBackToTheSameEditorAfterTenMinutes() {
        List<Long> ids = Fixtures.articles(dsl, "news", 1, 3, -60);
        session.queue().release(session.queue().claim("ann").articles().get(0));
        assertThat(session.queue().claim("ann").articles()).isEmpty();

        // ten minutes on, as far as the rule is concerned
        dsl.execute("UPDATE article SET passed_until = passed_until - INTERVAL 601 SECOND WHERE id = ?", ids.get(0));
        assertThat(ids(session.queue().claim("ann"))).containsExactly(ids.get(0));
    }

    @Test
    void approveAndRejectFinishTheArticleAndKeepTheDecision() {
        Fixtures.articles(dsl, "news", 2, 3, -60);
        List<HeldArticle> held = session.queue().claim("ann").articles();

        assertThat(decide(held.get(0), Verdict.APPROVE, "")).isInstanceOf(DecisionOutcome.Recorded.class);
        assertThat(decide(held.get(1), Verdict.REJECT, "")).isInstanceOf(DecisionOutcome.Refused.class);
        assertThat(decide(held.get(1), Verdict.REJECT, "Duplicate of yesterday's story")).isInstanceOf(DecisionOutcome.Recorded.class);

        assertThat(dsl.fetchValue(ARTICLE.STATUS, ARTICLE.ID.eq(held.get(0).id()))).isEqualTo(ArticleStatus.approved);
        assertThat(dsl.fetchValue(ARTICLE.STATUS, ARTICLE.ID.eq(held.get(1).id()))).isEqualTo(ArticleStatus.rejected);
        assertThat(dsl.fetchValue(ARTICLE.DECISION_NOTE, ARTICLE.ID.eq(held.get(1).id()))).isEqualTo("Duplicate of yesterday's story");
        assertThat(dsl.fetchCount(DECISION)).isEqualTo(2);
        assertThat(dsl.fetchValue(ARTICLE.LOCKED_BY, ARTICLE.ID.eq(held.get(0).id()))).isNull();
    }

    @Test
    void onADeskWithoutWriterRevisionsSendBackReturnsTheArticleAfterAGrowingBackOffAndQuarantinesItAfterTooMany() {
        dsl.update(DESK).set(DESK.MAX_SEND_BACKS, 2).set(DESK.SEND_BACK_DELAY_SECONDS, 60).set(DESK.SEND_BACK_WAITS_FOR_WRITER, 0)
                .where(DESK.ID.eq("news")).execute();
        long id = Fixtures.articles(dsl, "news", 1, 3, -60).get(0);

        DecisionOutcome.Recorded first = (DecisionOutcome.Recorded) decide(session.queue().claim("ann").articles().get(0),
                Verdict.SEND_BACK, "Check the quotes");
        assertThat(first.resultingStatus()).isEqualTo("queued");
        assertThat(session.queue().claim("ann").articles()).isEmpty(); // backing off
        LocalDateTimeAssert.between(dsl, id, Duration.ofSeconds(55), Duration.ofSeconds(61));

        makeAvailable(id);
        decide(session.queue().claim("ann").articles().get(0), Verdict.SEND_BACK, "Still unchecked");
        LocalDateTimeAssert.between(dsl, id, Duration.ofSeconds(115), Duration.ofSeconds(121)); // doubled

        makeAvailable(id);
        DecisionOutcome.Recorded third = (DecisionOutcome.Recorded) decide(session.queue().claim("ann").articles().get(0),
                Verdict.SEND_BACK, "Third time");
        assertThat(third.autoQuarantined()).isTrue();
        assertThat(dsl.fetchValue(ARTICLE.STATUS, ARTICLE.ID.eq(id))).isEqualTo(ArticleStatus.quarantined);
        assertThat(dsl.fetchValue(ARTICLE.ATTEMPTS, ARTICLE.ID.eq(id))).isEqualTo(3);
        assertThat(session.history().of(id)).extracting(HistoryEntry::action).contains("send_back", "quarantine");
    }

    private void makeAvailable(long id) {
        dsl.update(ARTICLE).set(ARTICLE.AVAILABLE_AT, ServerClock.plus(ServerClock.now(), Duration.ofSeconds(-1)))
                .where(ARTICLE.ID.eq(id)).execute();
    }

    @Test
    void unreviewableGoesToQuarantineAndASupervisorCanCorrectAndRequeueIt() {
        long id = Fixtures.articles(dsl, "news", 1, 3, -60).get(0);
        decide(session.queue().claim("ann").articles().get(0), Verdict.UNREVIEWABLE, "Body is garbled");

        assertThat(session.quarantine().list()).extracting(ArticleQuarantine.Entry::id).containsExactly(id);
        assertThat(session.queue().claim("ann").articles()).isEmpty();

        session.quarantine().requeue(id, "sue", "Fixed title", "Clean body text", "re-encoded");

        assertThat(session.quarantine().list()).isEmpty();
        HeldArticle again = session.queue().claim("ann").articles().get(0);
        assertThat(again.title()).isEqualTo("Fixed title");
        assertThat(session.history().of(id)).extracting(HistoryEntry::action).contains("unreviewable", "requeue");
        assertThatThrownBy(() -> session.quarantine().requeue(id, "sue", null, null, null))
                .hasMessageContaining("not in quarantine");
    }

    @Test
    void aDecisionRetriedAfterALostReplyIsAppliedOnce() {
        Fixtures.articles(dsl, "news", 1, 3, -60);
        HeldArticle article = session.queue().claim("ann").articles().get(0);
        DecisionRequest request = new DecisionRequest(UUID.randomUUID(), article.id(), article.lease(), Verdict.APPROVE, "ok");

        assertThat(session.decisions().submit(request)).isInstanceOf(DecisionOutcome.Recorded.class);
        assertThat(session.decisions().submit(request)).isInstanceOf(DecisionOutcome.AlreadyRecorded.class);
        assertThat(dsl.fetchCount(DECISION)).isEqualTo(1);
        assertThat(dsl.fetchCount(LEASE_EVENT, LEASE_EVENT.ACTION.eq("approve"))).isEqualTo(1);
    }

    @Test
    void aDecisionUnderALostLeaseIsRefusedInPlainWordsAndTheDraftSurvives() {
        Fixtures.articles(dsl, "news", 1, 3, -60);
        HeldArticle article = session.queue().claim("ann").articles().get(0);
        session.drafts().save(article.id(), "ann", Verdict.REJECT, "Libel risk in para 3");
        session.supervision().forceRelease(article.id(), "sue", "Legal wants to see it first");

        DecisionOutcome outcome = decide(article, Verdict.REJECT, "Libel risk in para 3");

        assertThat(outcome).isInstanceOf(DecisionOutcome.Lost.class);
        DecisionOutcome.Lost lost = (DecisionOutcome.Lost) outcome;
        assertThat(lost.lost().reason()).isEqualTo(LostReason.FORCE_RELEASED);
        assertThat(lost.message()).contains("Sue Lindqvist", "Legal wants to see it first", "Your notes go with it");
        assertThat(session.drafts().load(article.id(), "ann")).get().extracting(Drafts.Draft::notes).isEqualTo("Libel risk in para 3");
        assertThat(dsl.fetchValue(ARTICLE.STATUS, ARTICLE.ID.eq(article.id()))).isEqualTo(ArticleStatus.queued);
        assertThat(dsl.fetchCount(DECISION)).isZero();
    }

    @Test
    void draftsAreSavedPerEditorRestoredAndRemovedByTheDecision() {
        Fixtures.articles(dsl, "news", 1, 3, -60);
        HeldArticle article = session.queue().claim("ann").articles().get(0);
        session.drafts().save(article.id(), "ann", null, "first");
        session.drafts().save(article.id(), "ann", Verdict.SEND_BACK, "second");
        session.drafts().save(article.id(), "bob", null, "bob's own");

        assertThat(session.drafts().load(article.id(), "ann")).get().satisfies(d -> {
            assertThat(d.notes()).isEqualTo("second");
            assertThat(d.verdict()).isEqualTo(Verdict.SEND_BACK);
        });
        decide(article, Verdict.APPROVE, "fine");
        assertThat(session.drafts().load(article.id(), "ann")).isEmpty();
        assertThat(session.drafts().load(article.id(), "bob")).isPresent();
    }

    @Test
    void heartbeatRenewsAndReportsLossesWithReasons() {
        Fixtures.articles(dsl, "sport", 2, 3, -60);
        List<HeldArticle> held = session.queue().claim("bob").articles();
        session.supervision().reassign(held.get(1).id(), "ann", "sue", false, "Bob is leaving early");

        ReviewQueue.Renewal renewal = session.queue().renew("bob", held);

        assertThat(renewal.renewed()).extracting(HeldArticle::id).containsExactly(held.get(0).id());
        assertThat(renewal.lost()).hasSize(1);
        assertThat(renewal.lost().get(0).message()).contains("gave", "Ann Kowalski", "Bob is leaving early");
        assertThat(session.newsroom().requireEditor("bob").lastSeenAt()).isNotNull();
    }

    @Test
    void reassignRespectsCapacityAndDesksUnlessOverridden() {
        Fixtures.articles(dsl, "sport", 5, 3, -60);
        session.newsroom().setCapacity("ann", 1);
        session.queue().claim("ann");
        long bobsArticle = session.queue().claim("bob").articles().get(0).id();

        assertThatThrownBy(() -> session.supervision().reassign(bobsArticle, "ann", "sue", false, null))
                .isInstanceOf(Supervision.OverCapacityException.class).hasMessageContaining("1 of 1");
        assertThat(session.supervision().reassign(bobsArticle, "ann", "sue", true, "urgent").owner()).isEqualTo("ann");
        long legal = Fixtures.articles(dsl, "legal", 1, 3, -60).get(0);
        assertThatThrownBy(() -> session.supervision().reassign(legal, "bob", "sue", true, null))
                .hasMessageContaining("does not work on the legal desk");
    }

    @Test
    void extendIsCappedByTheDeskMaximum() {
        dsl.update(DESK).set(DESK.MAX_LEASE_SECONDS, 3600).where(DESK.ID.eq("news")).execute();
        Fixtures.articles(dsl, "news", 1, 3, -60);
        HeldArticle article = session.queue().claim("ann").articles().get(0);

        var extended = session.supervision().extend(article.id(), Duration.ofHours(5), "sue").orElseThrow();

        assertThat(extended.remainingAtRead()).isLessThanOrEqualTo(Duration.ofHours(1));
        assertThat(extended.remainingAtRead()).isGreaterThan(Duration.ofMinutes(58));
    }

    @Test
    void theReleaseServiceFreesExpiredLeasesAndRecordsThemAsExpiries() throws Exception {
        Fixtures.articles(dsl, "sport", 3, 3, -60);
        Assignment bob = session.queue().claim("bob", Duration.ofSeconds(1));
        List<Lease> seen = new ArrayList<>();
        Fixtures.letTimePass(dsl, Duration.ofSeconds(2), bob.articles().stream().map(HeldArticle::id).toList());

        try (ReleaseService service = session.releaseService(seen::addAll)) {
            assertThat(service.runOnce()).hasSize(3);
        }

        assertThat(seen).hasSize(3);
        assertThat(dsl.fetchCount(ARTICLE, ARTICLE.LOCKED_BY.isNotNull())).isZero();
        assertThat(session.history().of(bob.articles().get(0).id())).extracting(HistoryEntry::action)
                .containsSubsequence("claim", "expire");
        ReviewQueue.Renewal renewal = session.queue().renew("bob", bob.articles());
        assertThat(renewal.lost()).hasSize(3);
        assertThat(renewal.lost().get(0).message()).contains("ran out");
    }

    @Test
    void oneRunOfTheReleaseServiceWorksThroughABacklogLargerThanItsChunks() {
        int backlog = ReleaseService.BATCH * 2 + 37;
        Fixtures.articles(dsl, "sport", backlog, 3, -60);
        dsl.update(ARTICLE).set(ARTICLE.LOCKED_BY, "gone").set(ARTICLE.LEASE_TOKEN, 7L)
                .set(ARTICLE.EXPIRES_AT, ServerClock.nowPlus(Duration.ofSeconds(-5)))
                .execute();

        try (ReleaseService service = session.releaseService(leases -> { })) {
            assertThat(service.runOnce()).hasSize(backlog);
            assertThat(service.runOnce()).isEmpty();
        }
        assertThat(dsl.fetchCount(ARTICLE, ARTICLE.LOCKED_BY.isNotNull())).isZero();
    }

    @Test
    void historyRecordsEveryStepWithActorAndPurgeRemovesOldHistory() {
        long id = Fixtures.articles(dsl, "news", 1, 3, -60).get(0);
        HeldArticle a = session.queue().claim("ann").articles().get(0);
        session.queue().claim("ann"); // refresh
        session.supervision().extend(id, Duration.ofMinutes(5), "sue");
        decide(session.queue().renew("ann", List.of(a)).renewed().get(0), Verdict.APPROVE, "good");

        assertThat(session.history().of(id)).extracting(HistoryEntry::action)
                .containsExactly("claim", "refresh", "extend", "renew", "complete", "approve");
        assertThat(session.history().of(id)).extracting(HistoryEntry::actor)
                .containsExactly("ann", "ann", "sue", "ann", "ann", "ann");

        dsl.update(LEASE_EVENT).set(LEASE_EVENT.OCCURRED_AT, ServerClock.plus(ServerClock.now(), Duration.ofDays(-400)))
                .where(LEASE_EVENT.ACTION.in("claim", "refresh")).execute();
        assertThat(session.history().purgeOlderThan(Duration.ofDays(365))).isEqualTo(2);
        assertThat(session.history().of(id)).hasSize(4);
    }

    @Test
    void queueHealthCountsEachStatePerDesk() {
        Fixtures.articles(dsl, "news", 4, 3, -60);
        Fixtures.articles(dsl, "news", 2, 3, 3600);
        List<HeldArticle> held = session.queue().claim("ann").articles();
        decide(held.get(0), Verdict.APPROVE, "");
        decide(held.get(1), Verdict.UNREVIEWABLE, "garbled");

        Supervision.DeskHealth news = session.supervision().queueHealth().stream()
                .filter(h -> h.desk().equals("news")).findFirst().orElseThrow();

        assertThat(news.waitingNow()).isEqualTo(1);
        assertThat(news.inReview()).isEqualTo(1);
        assertThat(news.scheduled()).isEqualTo(2);
        assertThat(news.quarantined()).isEqualTo(1);
        assertThat(news.finishedToday()).isEqualTo(1);
        assertThat(news.oldestWaitingSince()).isNotNull();
    }

    @Test
    void theDemoNewsroomLoadsOnceWithScheduledWork() {
        dsl.deleteFrom(EDITOR_DESK).execute();
        dsl.deleteFrom(EDITOR).execute();
        dsl.deleteFrom(DESK).execute();

        assertThat(DemoNewsroom.loadIfEmpty(dsl, session.newsroom())).isTrue();
        assertThat(DemoNewsroom.loadIfEmpty(dsl, session.newsroom())).isFalse();

        assertThat(dsl.fetchCount(ARTICLE)).isEqualTo(DemoNewsroom.ARTICLES);
        assertThat(dsl.fetchCount(DESK)).isGreaterThanOrEqualTo(4);
        assertThat(dsl.fetchCount(ARTICLE, ARTICLE.AVAILABLE_AT.gt(ServerClock.now()))).isGreaterThan(5);
        assertThat(session.newsroom().editors()).extracting(Editor::role).contains(Role.SUPERVISOR, Role.EDITOR);
    }

    /** Checks how far ahead of the server's now an article becomes available. */
    static final class LocalDateTimeAssert {
        static void between(DSLContext dsl, long id, Duration min, Duration max) {
            var r = dsl.select(ARTICLE.AVAILABLE_AT, ServerClock.now().as("now")).from(ARTICLE).where(ARTICLE.ID.eq(id)).fetchOne();
            assertThat(Duration.between(r.get("now", LocalDateTime.class), r.get(ARTICLE.AVAILABLE_AT))).isBetween(min, max);
        }
    }
}
