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
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.copydesk.db.schema.enums.ArticleStatus;
import org.copydesk.lease.ClaimStrategyKind;
import org.copydesk.lease.LostReason;
import org.copydesk.lease.ServerClock;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.TestDatabase;
import org.jooq.DSLContext;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The newsroom's rules, on the real database. */
@ExtendWith(DatabaseExtension.class)
class ReviewWorkflowTest {

    private final TestDatabase db;
    private final DSLContext dsl;
    private final ReviewSession services;

    ReviewWorkflowTest(TestDatabase db) {
        this.db = db;
        this.dsl = db.dsl();
        this.services = new ReviewSession(db.database(), ReviewSession.Options.defaults());
    }

    @BeforeEach
    void newsroom() {
        Fixtures.emptyNewsroom(dsl);
        Newsroom n = services.newsroom();
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
        return services.decisions().submit(new DecisionRequest(UUID.randomUUID(), article.id(), article.lease(), verdict, notes));
    }

    @Test
    void editorsOnlyReceiveArticlesFromTheirDesksUpToTheirCapacity() {
        Fixtures.articles(dsl, "legal", 5, 1, -60);
        List<Long> news = Fixtures.articles(dsl, "news", 2, 3, -60);
        List<Long> sport = Fixtures.articles(dsl, "sport", 4, 3, -30);

        Assignment ann = services.queue().claim("ann");

        assertThat(ann.articles()).hasSize(3);
        assertThat(ids(ann)).containsExactly(news.get(0), news.get(1), sport.get(0));
        assertThat(ann.articles()).allMatch(a -> !a.desk().equals("legal"));
        assertThat(services.queue().claim("ann").articles()).hasSize(3); // reload never exceeds capacity
    }

    @Test
    void eachDeskGivesItsOwnLeaseLength() {
        Fixtures.articles(dsl, "news", 1, 3, -60);
        Fixtures.articles(dsl, "sport", 1, 3, -60);

        Assignment ann = services.queue().claim("ann");

        for (HeldArticle a : ann.articles()) {
            Duration expected = a.desk().equals("news") ? Duration.ofMinutes(30) : Duration.ofMinutes(20);
            assertThat(a.lease().remainingAtRead()).isBetween(expected.minusSeconds(2), expected);
        }
    }

    @Test
    void embargoedArticlesAreInvisibleAndTheQueueSaysWhenTheNextOneComes() {
        Fixtures.articles(dsl, "news", 2, 1, 3600);
        Fixtures.articles(dsl, "sport", 1, 3, 1800);

        Assignment ann = services.queue().claim("ann");

        assertThat(ann.articles()).isEmpty();
        assertThat(ann.nextAvailableAt()).isPresent();
        assertThat(Duration.between(ann.serverTime(), ann.nextAvailableAt().get())).isBetween(Duration.ofMinutes(29), Duration.ofMinutes(31));
    }

    @Test
    void priorityFirstThenReturningWorkThenOldestFirst() {
        List<Long> old = Fixtures.articles(dsl, "news", 2, 3, -600);
        List<Long> urgent = Fixtures.articles(dsl, "news", 1, 1, -10);
        Assignment ann = services.queue().claim("ann");
        assertThat(ids(ann)).containsExactly(urgent.get(0), old.get(0), old.get(1));
        services.queue().release(ann.articles().get(2)); // old[1] comes back
        Fixtures.articles(dsl, "news", 1, 3, -3600); // fresh but older than everything

        Assignment bob = services.queue().claim("sue");

        assertThat(ids(bob).get(0)).isEqualTo(old.get(1));
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.EnumSource(org.copydesk.lease.ClaimStrategyKind.class)
    void aReleasedArticleIsNotHandedStraightBackToTheEditorWhoGaveItBack(org.copydesk.lease.ClaimStrategyKind strategy) {
        ReviewQueue queue = new ReviewSession(db.database(), new ReviewSession.Options(strategy, java.time.Duration.ofSeconds(5))).queue();
        List<Long> ids = Fixtures.articles(dsl, "news", 2, 3, -60);
        // (OPTIMISTIC takes its window in a random order: find the first article among what she holds)
        HeldArticle first = queue.claim("ann").articles().stream().filter(a -> a.id() == ids.get(0)).findFirst().orElseThrow();
        queue.release(first);

        assertThat(ids(queue.claim("ann"))).as("ann's reload passes over what she gave back").containsExactly(ids.get(1));
        assertThat(ids(queue.claim("sue"))).as("someone else gets it").containsExactly(ids.get(0));
        queue.release(queue.claim("sue").articles().get(0));
        assertThat(ids(queue.claim("ann"))).as("after someone else had it, ann may get it again")
                .containsExactlyInAnyOrder(ids.get(1), ids.get(0));
    }

    @Test
    void aReleasedArticleComesBackToTheSameEditorAfterTenMinutes() {
        List<Long> ids = Fixtures.articles(dsl, "news", 1, 3, -60);
        services.queue().release(services.queue().claim("ann").articles().get(0));
        assertThat(services.queue().claim("ann").articles()).isEmpty();

        // ten minutes on, as far as the rule is concerned
        dsl.execute("UPDATE article SET passed_until = passed_until - INTERVAL 601 SECOND WHERE id = ?", ids.get(0));
        assertThat(ids(services.queue().claim("ann"))).containsExactly(ids.get(0));
    }

    @Test
    void approveAndRejectFinishTheArticleAndKeepTheDecision() {
        Fixtures.articles(dsl, "news", 2, 3, -60);
        List<HeldArticle> held = services.queue().claim("ann").articles();

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

        DecisionOutcome.Recorded first = (DecisionOutcome.Recorded) decide(services.queue().claim("ann").articles().get(0),
                Verdict.SEND_BACK, "Check the quotes");
        assertThat(first.resultingStatus()).isEqualTo("queued");
        assertThat(services.queue().claim("ann").articles()).isEmpty(); // backing off
        LocalDateTimeAssert.between(dsl, id, Duration.ofSeconds(55), Duration.ofSeconds(61));

        makeAvailable(id);
        decide(services.queue().claim("ann").articles().get(0), Verdict.SEND_BACK, "Still unchecked");
        LocalDateTimeAssert.between(dsl, id, Duration.ofSeconds(115), Duration.ofSeconds(121)); // doubled

        makeAvailable(id);
        DecisionOutcome.Recorded third = (DecisionOutcome.Recorded) decide(services.queue().claim("ann").articles().get(0),
                Verdict.SEND_BACK, "Third time");
        assertThat(third.autoQuarantined()).isTrue();
        assertThat(dsl.fetchValue(ARTICLE.STATUS, ARTICLE.ID.eq(id))).isEqualTo(ArticleStatus.quarantined);
        assertThat(dsl.fetchValue(ARTICLE.ATTEMPTS, ARTICLE.ID.eq(id))).isEqualTo(3);
        assertThat(services.history().of(id)).extracting(HistoryEntry::action).contains("send_back", "quarantine");
    }

    private void makeAvailable(long id) {
        dsl.update(ARTICLE).set(ARTICLE.AVAILABLE_AT, ServerClock.plus(ServerClock.now(), Duration.ofSeconds(-1)))
                .where(ARTICLE.ID.eq(id)).execute();
    }

    @Test
    void unreviewableGoesToQuarantineAndASupervisorCanCorrectAndRequeueIt() {
        long id = Fixtures.articles(dsl, "news", 1, 3, -60).get(0);
        decide(services.queue().claim("ann").articles().get(0), Verdict.UNREVIEWABLE, "Body is garbled");

        assertThat(services.quarantine().list()).extracting(ArticleQuarantine.Entry::id).containsExactly(id);
        assertThat(services.queue().claim("ann").articles()).isEmpty();

        services.quarantine().requeue(id, "sue", "Fixed title", "Clean body text", "re-encoded");

        assertThat(services.quarantine().list()).isEmpty();
        HeldArticle again = services.queue().claim("ann").articles().get(0);
        assertThat(again.title()).isEqualTo("Fixed title");
        assertThat(services.history().of(id)).extracting(HistoryEntry::action).contains("unreviewable", "requeue");
        assertThatThrownBy(() -> services.quarantine().requeue(id, "sue", null, null, null))
                .hasMessageContaining("not in quarantine");
    }

    @Test
    void aDecisionRetriedAfterALostReplyIsAppliedOnce() {
        Fixtures.articles(dsl, "news", 1, 3, -60);
        HeldArticle article = services.queue().claim("ann").articles().get(0);
        DecisionRequest request = new DecisionRequest(UUID.randomUUID(), article.id(), article.lease(), Verdict.APPROVE, "ok");

        assertThat(services.decisions().submit(request)).isInstanceOf(DecisionOutcome.Recorded.class);
        assertThat(services.decisions().submit(request)).isInstanceOf(DecisionOutcome.AlreadyRecorded.class);
        assertThat(dsl.fetchCount(DECISION)).isEqualTo(1);
        assertThat(dsl.fetchCount(LEASE_EVENT, LEASE_EVENT.ACTION.eq("approve"))).isEqualTo(1);
    }

    @Test
    void aDecisionUnderALostLeaseIsRefusedInPlainWordsAndTheDraftSurvives() {
        Fixtures.articles(dsl, "news", 1, 3, -60);
        HeldArticle article = services.queue().claim("ann").articles().get(0);
        services.drafts().save(article.id(), "ann", Verdict.REJECT, "Libel risk in para 3");
        services.supervision().forceRelease(article.id(), "sue", "Legal wants to see it first");

        DecisionOutcome outcome = decide(article, Verdict.REJECT, "Libel risk in para 3");

        assertThat(outcome).isInstanceOf(DecisionOutcome.Lost.class);
        DecisionOutcome.Lost lost = (DecisionOutcome.Lost) outcome;
        assertThat(lost.lost().reason()).isEqualTo(LostReason.FORCE_RELEASED);
        assertThat(lost.message()).contains("Sue Lindqvist", "Legal wants to see it first", "kept as a draft");
        assertThat(services.drafts().load(article.id(), "ann")).get().extracting(Drafts.Draft::notes).isEqualTo("Libel risk in para 3");
        assertThat(dsl.fetchValue(ARTICLE.STATUS, ARTICLE.ID.eq(article.id()))).isEqualTo(ArticleStatus.queued);
        assertThat(dsl.fetchCount(DECISION)).isZero();
    }

    @Test
    void draftsAreSavedPerEditorRestoredAndRemovedByTheDecision() {
        Fixtures.articles(dsl, "news", 1, 3, -60);
        HeldArticle article = services.queue().claim("ann").articles().get(0);
        services.drafts().save(article.id(), "ann", null, "first");
        services.drafts().save(article.id(), "ann", Verdict.SEND_BACK, "second");
        services.drafts().save(article.id(), "bob", null, "bob's own");

        assertThat(services.drafts().load(article.id(), "ann")).get().satisfies(d -> {
            assertThat(d.notes()).isEqualTo("second");
            assertThat(d.verdict()).isEqualTo(Verdict.SEND_BACK);
        });
        decide(article, Verdict.APPROVE, "fine");
        assertThat(services.drafts().load(article.id(), "ann")).isEmpty();
        assertThat(services.drafts().load(article.id(), "bob")).isPresent();
    }

    @Test
    void heartbeatRenewsAndReportsLossesWithReasons() {
        Fixtures.articles(dsl, "sport", 2, 3, -60);
        List<HeldArticle> held = services.queue().claim("bob").articles();
        services.supervision().reassign(held.get(1).id(), "ann", "sue", false, "Bob is leaving early");

        ReviewQueue.Renewal renewal = services.queue().renew("bob", held);

        assertThat(renewal.renewed()).extracting(HeldArticle::id).containsExactly(held.get(0).id());
        assertThat(renewal.lost()).hasSize(1);
        assertThat(renewal.lost().get(0).message()).contains("gave", "Ann Kowalski", "Bob is leaving early");
        assertThat(services.newsroom().requireEditor("bob").lastSeenAt()).isNotNull();
    }

    @Test
    void reassignRespectsCapacityAndDesksUnlessOverridden() {
        Fixtures.articles(dsl, "sport", 5, 3, -60);
        services.newsroom().setCapacity("ann", 1);
        services.queue().claim("ann");
        long bobsArticle = services.queue().claim("bob").articles().get(0).id();

        assertThatThrownBy(() -> services.supervision().reassign(bobsArticle, "ann", "sue", false, null))
                .isInstanceOf(Supervision.OverCapacityException.class).hasMessageContaining("1 of 1");
        assertThat(services.supervision().reassign(bobsArticle, "ann", "sue", true, "urgent").owner()).isEqualTo("ann");
        long legal = Fixtures.articles(dsl, "legal", 1, 3, -60).get(0);
        assertThatThrownBy(() -> services.supervision().reassign(legal, "bob", "sue", true, null))
                .hasMessageContaining("does not work on the legal desk");
    }

    @Test
    void extendIsCappedByTheDeskMaximum() {
        dsl.update(DESK).set(DESK.MAX_LEASE_SECONDS, 3600).where(DESK.ID.eq("news")).execute();
        Fixtures.articles(dsl, "news", 1, 3, -60);
        HeldArticle article = services.queue().claim("ann").articles().get(0);

        var extended = services.supervision().extend(article.id(), Duration.ofHours(5), "sue").orElseThrow();

        assertThat(extended.remainingAtRead()).isLessThanOrEqualTo(Duration.ofHours(1));
        assertThat(extended.remainingAtRead()).isGreaterThan(Duration.ofMinutes(58));
    }

    /**
     * A lease that ran out before the release service came round is taken over in claim order, ahead
     * of free work that comes later in the queue (V13 reads free rows from their own index and
     * must then look for lapsed leases first).
     */
    @ParameterizedTest
    @EnumSource(ClaimStrategyKind.class)
    void aClaimTakesOverLapsedLeasesInClaimOrderAheadOfLaterFreeWork(ClaimStrategyKind strategy) {
        ReviewSession claiming = new ReviewSession(db.database(), new ReviewSession.Options(strategy, Duration.ofSeconds(5)));
        List<Long> first = Fixtures.articles(dsl, "sport", 2, 3, -600);
        Assignment bob = claiming.queue().claim("bob");
        assertThat(ids(bob)).containsExactlyElementsOf(first);
        Fixtures.letTimePass(dsl, Duration.ofMinutes(21), first); // sport's leases are 20 minutes
        List<Long> later = Fixtures.articles(dsl, "sport", 2, 3, -60);

        Assignment ann = claiming.queue().claim("ann");

        assertThat(ids(ann)).containsExactly(first.get(0), first.get(1), later.get(0));
        assertThat(claiming.history().of(first.get(0))).extracting(HistoryEntry::action, HistoryEntry::actor)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("claim", "bob"),
                        org.assertj.core.groups.Tuple.tuple("expire", "ann"), org.assertj.core.groups.Tuple.tuple("claim", "ann"));
        assertThat(claiming.queue().renew("bob", bob.articles()).lost()).hasSize(2);
    }

    /**
     * A claim's history row records the lease as the article holds it: its token and its end, and
     * the lease it ended when it took over a lapsed one (V15 writes them from what the claim knows
     * instead of reading the article back).
     */
    @ParameterizedTest
    @EnumSource(ClaimStrategyKind.class)
    void aClaimsHistoryRowRecordsTheLeaseTheArticleHolds(ClaimStrategyKind strategy) {
        ReviewSession claiming = new ReviewSession(db.database(), new ReviewSession.Options(strategy, Duration.ofSeconds(5)));
        List<Long> lapsing = Fixtures.articles(dsl, "sport", 2, 3, -600);
        claiming.queue().claim("bob");
        Fixtures.letTimePass(dsl, Duration.ofMinutes(21), lapsing);
        Fixtures.articles(dsl, "sport", 3, 3, -60);

        Assignment ann = claiming.queue().claim("ann");

        // (OPTIMISTIC starts at a random place in its window: it need not take the lapsed ones)
        List<Long> takenOver = ids(ann).stream().filter(lapsing::contains).toList();
        if (strategy != ClaimStrategyKind.OPTIMISTIC) {
            assertThat(takenOver).isEqualTo(lapsing);
        }
        for (HeldArticle held : ann.articles()) {
            var article = dsl.fetchOne(ARTICLE, ARTICLE.ID.eq(held.id()));
            var claim = dsl.selectFrom(LEASE_EVENT).where(LEASE_EVENT.ROW_KEY.eq(String.valueOf(held.id())))
                    .and(LEASE_EVENT.ACTION.eq("claim")).and(LEASE_EVENT.ACTOR.eq("ann")).fetchOne();
            assertThat(claim).as("ann's claim of %d", held.id()).isNotNull();
            assertThat(claim.getLeaseToken()).isEqualTo(article.getLeaseToken()).isEqualTo(held.lease().token());
            assertThat(claim.getExpiresAt()).isEqualTo(article.getExpiresAt());
            assertThat(claim.getNewOwner()).isEqualTo("ann");
            assertThat(claim.getOldToken()).isEqualTo(article.getLeaseToken() - 1);
            assertThat(claim.getOldOwner()).isEqualTo(lapsing.contains(held.id()) ? "bob" : null);
        }
        assertThat(dsl.fetchCount(LEASE_EVENT, LEASE_EVENT.ACTION.eq("expire").and(LEASE_EVENT.ACTOR.eq("ann"))
                .and(LEASE_EVENT.OLD_OWNER.eq("bob")).and(LEASE_EVENT.DETAIL.eq("lapsed lease taken over by ann"))))
                .isEqualTo(takenOver.size());
    }

    @Test
    void theReleaseServiceFreesExpiredLeasesAndRecordsThemAsExpiries() throws Exception {
        Fixtures.articles(dsl, "sport", 3, 3, -60);
        Assignment bob = services.queue().claim("bob", Duration.ofSeconds(1));
        List<org.copydesk.lease.Lease> seen = new ArrayList<>();
        Fixtures.letTimePass(dsl, Duration.ofSeconds(2), bob.articles().stream().map(HeldArticle::id).toList());

        try (ReleaseService service = services.releaseService(seen::addAll)) {
            assertThat(service.runOnce()).hasSize(3);
        }

        assertThat(seen).hasSize(3);
        assertThat(dsl.fetchCount(ARTICLE, ARTICLE.LOCKED_BY.isNotNull())).isZero();
        assertThat(services.history().of(bob.articles().get(0).id())).extracting(HistoryEntry::action)
                .containsSubsequence("claim", "expire");
        ReviewQueue.Renewal renewal = services.queue().renew("bob", bob.articles());
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

        try (ReleaseService service = services.releaseService(leases -> { })) {
            assertThat(service.runOnce()).hasSize(backlog);
            assertThat(service.runOnce()).isEmpty();
        }
        assertThat(dsl.fetchCount(ARTICLE, ARTICLE.LOCKED_BY.isNotNull())).isZero();
    }

    @Test
    void historyRecordsEveryStepWithActorAndPurgeRemovesOldHistory() {
        long id = Fixtures.articles(dsl, "news", 1, 3, -60).get(0);
        HeldArticle a = services.queue().claim("ann").articles().get(0);
        services.queue().claim("ann"); // refresh
        services.supervision().extend(id, Duration.ofMinutes(5), "sue");
        decide(services.queue().renew("ann", List.of(a)).renewed().get(0), Verdict.APPROVE, "good");

        assertThat(services.history().of(id)).extracting(HistoryEntry::action)
                .containsExactly("claim", "refresh", "extend", "renew", "complete", "approve");
        assertThat(services.history().of(id)).extracting(HistoryEntry::actor)
                .containsExactly("ann", "ann", "sue", "ann", "ann", "ann");

        dsl.update(LEASE_EVENT).set(LEASE_EVENT.OCCURRED_AT, ServerClock.plus(ServerClock.now(), Duration.ofDays(-400)))
                .where(LEASE_EVENT.ACTION.in("claim", "refresh")).execute();
        assertThat(services.history().purgeOlderThan(Duration.ofDays(365))).isEqualTo(2);
        assertThat(services.history().of(id)).hasSize(4);
    }

    @Test
    void queueHealthCountsEachStatePerDesk() {
        Fixtures.articles(dsl, "news", 4, 3, -60);
        Fixtures.articles(dsl, "news", 2, 3, 3600);
        List<HeldArticle> held = services.queue().claim("ann").articles();
        decide(held.get(0), Verdict.APPROVE, "");
        decide(held.get(1), Verdict.UNREVIEWABLE, "garbled");

        Supervision.DeskHealth news = services.supervision().queueHealth().stream()
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

        assertThat(DemoNewsroom.loadIfEmpty(dsl, services.newsroom())).isTrue();
        assertThat(DemoNewsroom.loadIfEmpty(dsl, services.newsroom())).isFalse();

        assertThat(dsl.fetchCount(ARTICLE)).isEqualTo(DemoNewsroom.ARTICLES);
        assertThat(dsl.fetchCount(DESK)).isGreaterThanOrEqualTo(4);
        assertThat(dsl.fetchCount(ARTICLE, ARTICLE.AVAILABLE_AT.gt(ServerClock.now()))).isGreaterThan(5);
        assertThat(services.newsroom().editors()).extracting(Editor::role).contains(Role.SUPERVISOR, Role.EDITOR);
    }

    /** Checks how far ahead of the server's now an article becomes available. */
    static final class LocalDateTimeAssert {
        static void between(DSLContext dsl, long id, Duration min, Duration max) {
            var r = dsl.select(ARTICLE.AVAILABLE_AT, ServerClock.now().as("now")).from(ARTICLE).where(ARTICLE.ID.eq(id)).fetchOne();
            assertThat(Duration.between(r.get("now", java.time.LocalDateTime.class), r.get(ARTICLE.AVAILABLE_AT))).isBetween(min, max);
        }
    }
}
