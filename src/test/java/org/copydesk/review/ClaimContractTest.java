package org.copydesk.review;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;
import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.DECISION;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.copydesk.db.schema.tables.records.ArticleRecord;
import org.copydesk.db.schema.tables.records.LeaseEventRecord;
import org.copydesk.lease.ClaimStrategyKind;
import org.copydesk.lease.Lease;
import org.copydesk.lease.LeaseLost;
import org.copydesk.lease.LostReason;
import org.copydesk.lease.ServerClock;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.TestDatabase;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The contract of the database's claim ({@code claim_articles}), for each of its strategies
 * (SKIP_LOCKED, BLOCKING, OPTIMISTIC, named in its last argument): what a claim takes and in which
 * order, the lease it gives (owner, token, the server's expiry), the lease it refreshes, the lapsed
 * lease it takes over, and the history rows it writes. The other operations' contract is
 * {@link LeaseOperationsContractTest}; races of many threads and processes, {@link OperationRaceTest}.
 *
 * <p>BLOCKING and OPTIMISTIC read their candidates from a random place near the head of the queue
 * and take them in claim order from there (so that claimers pressing Get articles together take
 * different rows), but only among articles as urgent as the head: where more of the same urgency
 * wait than the claim takes, which of them it takes is not fixed, and the cases say so; a more
 * urgent article is never passed over. SKIP_LOCKED takes exactly the head of the queue.
 */
class ClaimContractTest extends OperationsFixture {


    ClaimContractTest(TestDatabase db) {
        super(db);
    }

    @ParameterizedTest
    @EnumSource(ClaimStrategyKind.class)
    void aClaimTakesUpToCapacityInClaimOrderWithTheServersExpiryANewTokenAndOneHistoryRowEach(ClaimStrategyKind strategy) {
        List<Long> low = Fixtures.articles(dsl, "news", 3, 4, -60);
        List<Long> urgent = Fixtures.articles(dsl, "news", 3, 1, -30);

        ReviewProcedures.Claimed ann = procedures(strategy).claim("ann", null, null, null);

        assertThat(ann.claimed()).isEqualTo(5);
        assertThat(ann.refreshed()).isZero();
        assertThat(ann.capacity()).isEqualTo(5);
        if (strategy != ClaimStrategyKind.SKIP_LOCKED) {
            assertThat(OperationsFixture.ids(ann)).as("the urgent ones and the first of the rest, in some order")
                    .containsExactlyInAnyOrder(urgent.get(0), urgent.get(1), urgent.get(2), low.get(0), low.get(1));
        } else {
            assertThat(OperationsFixture.ids(ann)).containsExactly(urgent.get(0), urgent.get(1), urgent.get(2), low.get(0),
                    low.get(1));
        }
        for (HeldArticle held : ann.held()) {
            Lease lease = held.lease();
            ArticleRecord article = article(held.id());
            assertThat(lease.owner()).isEqualTo("ann");
            assertThat(lease.token()).as("a fresh article's first lease").isEqualTo(1L).isEqualTo(article.getLeaseToken());
            assertThat(lease.expiresAt()).isEqualTo(article.getExpiresAt());
            assertThat(lease.remainingAtRead()).isBetween(OperationsFixture.NEWS_LEASE.minusSeconds(2), OperationsFixture.NEWS_LEASE);
            assertThat(article.getLockedBy()).isEqualTo("ann");
            assertThat(history(held.id())).extracting(LeaseEventRecord::getAction, LeaseEventRecord::getActor,
                            LeaseEventRecord::getOldOwner, LeaseEventRecord::getNewOwner, LeaseEventRecord::getOldToken,
                            LeaseEventRecord::getLeaseToken, LeaseEventRecord::getExpiresAt, LeaseEventRecord::getDetail)
                    .containsExactly(tuple("claim", "ann", null, "ann", 0L, 1L, article.getExpiresAt(), null));
        }
        // fencing: under an older token, or presented by someone else, the lease changes nothing
        Lease first = ann.held().get(0).lease();
        ReviewProcedures procedures = procedures(strategy);
        assertThat(procedures.decide("ann", OperationsFixture.withToken(first, 0), UUID.randomUUID(), Verdict.APPROVE,
                "").outcome()).isEqualTo(ReviewProcedures.DecideOutcome.LOST);
        assertThat(procedures.decide("bob", OperationsFixture.heldBy(first, "bob"), UUID.randomUUID(), Verdict.APPROVE,
                "").outcome()).isEqualTo(ReviewProcedures.DecideOutcome.LOST);
        assertThat(dsl.fetchCount(DECISION)).isZero();
        assertThat(article(OperationsFixture.id(first)).getLockedBy()).isEqualTo("ann");
    }

    @ParameterizedTest
    @EnumSource(ClaimStrategyKind.class)
    void anUrgentArticleIsTheNextClaimHoweverManyLessUrgentOnesWait(ClaimStrategyKind strategy) {
        Fixtures.articles(dsl, "news", 200, 3, -600);
        ReviewProcedures procedures = procedures(strategy);
        for (int i = 0; i < 20; i++) { // a claim from a random place passed over it in 30 of 31 claims
            long urgent = Fixtures.articles(dsl, "news", 1, 1, -1).get(0);
            HeldArticle taken = procedures.claim("ann", null, 1, null).held().get(0);
            assertThat(taken.id()).as("claim %d", i).isEqualTo(urgent);
            procedures.decide("ann", taken.lease(), UUID.randomUUID(), Verdict.APPROVE, "");
        }
    }

    @ParameterizedTest
    @EnumSource(ClaimStrategyKind.class)
    void aReloadRefreshesTheLeasesHeldKeepsTheirTokensAndTopsUpToCapacity(ClaimStrategyKind strategy) {
        Fixtures.articles(dsl, "news", 8, 3, -60);
        ReviewProcedures procedures = procedures(strategy);
        ReviewProcedures.Claimed first = procedures.claim("ann", null, 3, 60);

        ReviewProcedures.Claimed reload = procedures.claim("ann", null, null, null);

        assertThat(first.claimed()).isEqualTo(3);
        assertThat(reload.refreshed()).isEqualTo(3);
        assertThat(reload.claimed()).isEqualTo(2);
        assertThat(OperationsFixture.ids(reload).subList(0, 3)).as("the leases held come first")
                .containsExactlyInAnyOrderElementsOf(OperationsFixture.ids(first));
        // the reload's history: one row of the editor's listing every lease it refreshed (ReloadAuditRowTest)
        List<LeaseEventRecord> reloads = dsl.selectFrom(org.copydesk.db.schema.Tables.LEASE_EVENT)
                .where(org.copydesk.db.schema.Tables.LEASE_EVENT.ACTION.eq("refresh")).fetch();
        assertThat(reloads).extracting(LeaseEventRecord::getResource, LeaseEventRecord::getRowKey, LeaseEventRecord::getActor)
                .containsExactly(tuple(RefreshedLeases.RESOURCE, "ann", "ann"));
        List<RefreshedLeases.Refreshed> listed = RefreshedLeases.parse(reloads.get(0).getDetail());
        for (HeldArticle before : first.held()) {
            Lease after = reload.held().stream().filter(h -> h.id() == before.id()).findFirst().orElseThrow().lease();
            assertThat(after.token()).as("token of %d", before.id()).isEqualTo(before.lease().token());
            assertThat(after.expiresAt()).as("a one-minute lease refreshed to the desk's length")
                    .isAfter(before.lease().expiresAt().plusMinutes(25));
            assertThat(history(before.id())).extracting(LeaseEventRecord::getAction, LeaseEventRecord::getActor,
                            LeaseEventRecord::getOldToken, LeaseEventRecord::getLeaseToken, LeaseEventRecord::getExpiresAt)
                    .containsExactly(tuple("claim", "ann", 0L, 1L, before.lease().expiresAt()));
            assertThat(listed).contains(new RefreshedLeases.Refreshed(before.id(), after.token(), after.expiresAt()));
        }
        assertThat(listed).hasSize(3);
        assertThat(article(first.held().get(0).id()).getRenewals()).isEqualTo(1);
    }

    @ParameterizedTest
    @EnumSource(ClaimStrategyKind.class)
    void twoEditorsNeverReceiveTheSameArticle(ClaimStrategyKind strategy) {
        List<Long> all = Fixtures.articles(dsl, "news", 7, 3, -60);
        ReviewProcedures procedures = procedures(strategy);

        ReviewProcedures.Claimed ann = procedures.claim("ann", null, null, null);
        ReviewProcedures.Claimed bob = procedures.claim("bob", null, null, null);

        assertThat(ann.claimed()).isEqualTo(5);
        assertThat(bob.claimed()).isEqualTo(2);
        Set<Long> taken = new HashSet<>(OperationsFixture.ids(ann));
        taken.addAll(OperationsFixture.ids(bob));
        assertThat(taken).containsExactlyInAnyOrderElementsOf(all);
    }

    @ParameterizedTest
    @EnumSource(ClaimStrategyKind.class)
    void desksAndEmbargoesDecideWhatAnEditorReceivesAndWhenMoreComes(ClaimStrategyKind strategy) {
        Fixtures.articles(dsl, "news", 3, 3, -60);
        List<Long> sport = Fixtures.articles(dsl, "sport", 2, 3, -60);
        Fixtures.articles(dsl, "sport", 2, 3, 3600); // embargoed for an hour
        ReviewProcedures procedures = procedures(strategy);

        ReviewProcedures.Claimed ann = procedures.claim("ann", List.of("sport"), null, null);
        ReviewProcedures.Claimed cat = procedures.claim("cat", null, null, null);

        assertThat(OperationsFixture.ids(ann)).as("only the desk she chose, only what is available")
                .containsExactlyInAnyOrderElementsOf(sport);
        assertThat(Duration.between(ann.serverNow(), ann.nextAvailableAt())).isBetween(Duration.ofMinutes(59), Duration.ofMinutes(61));
        assertThat(cat.claimed()).as("cat works on sport only, and nothing there is free").isZero();
    }

    /**
     * A lease that ran out before the release service came round is taken over by the next claim, in
     * claim order: work that came back (lane 0) goes before fresh work of the same priority, even
     * fresh work that waited longer. The history says the lapsed lease ended and who took the
     * article, and its former holder is told why.
     */
    @ParameterizedTest
    @EnumSource(ClaimStrategyKind.class)
    void aLapsedLeaseIsTakenOverAtOnceAheadOfFreshWorkAndItsHolderIsToldWhy(ClaimStrategyKind strategy) {
        ReviewProcedures procedures = procedures(strategy);
        List<Long> lapsing = Fixtures.articles(dsl, "sport", 2, 3, -600);
        ReviewProcedures.Claimed bob = procedures.claim("bob", null, null, null);
        Fixtures.letTimePass(dsl, SPORT_PLUS_A_MINUTE, lapsing);
        // the lapsed articles become the newest: only their lane can put them first
        dsl.update(ARTICLE).set(ARTICLE.AVAILABLE_AT, ServerClock.now()).where(ARTICLE.ID.in(lapsing)).execute();
        List<Long> fresh = Fixtures.articles(dsl, "sport", 2, 3, -60);

        ReviewProcedures.Claimed ann = procedures.claim("ann", null, null, null);

        if (strategy != ClaimStrategyKind.SKIP_LOCKED) {
            assertThat(OperationsFixture.ids(ann)).containsExactlyInAnyOrderElementsOf(concat(lapsing, fresh));
        } else {
            assertThat(OperationsFixture.ids(ann)).containsExactly(lapsing.get(0), lapsing.get(1), fresh.get(0), fresh.get(1));
        }
        for (HeldArticle lapsed : bob.held()) {
            Lease annsLease = ann.held().stream().filter(h -> h.id() == lapsed.id()).findFirst().orElseThrow().lease();
            long old = lapsed.lease().token();
            assertThat(annsLease.token()).isEqualTo(old + 1);
            assertThat(history(lapsed.id())).extracting(LeaseEventRecord::getAction, LeaseEventRecord::getActor,
                            LeaseEventRecord::getOldOwner, LeaseEventRecord::getNewOwner, LeaseEventRecord::getOldToken,
                            LeaseEventRecord::getLeaseToken, LeaseEventRecord::getDetail)
                    .containsExactly(tuple("claim", "bob", null, "bob", old - 1, old, null),
                            tuple("expire", "ann", "bob", null, old, null, "lapsed lease taken over by ann"),
                            tuple("claim", "ann", "bob", "ann", old, old + 1, null));
            LeaseLost lost = leases.diagnose(lapsed.lease());
            assertThat(lost.reason()).isEqualTo(LostReason.EXPIRED);
            assertThat(lost.currentOwner()).isEqualTo("ann");
            assertThat(LeaseLossPhrases.explain(lost, "Cup final", this::name).text())
                    .isEqualTo("Your time on \u201cCup final\u201d ran out; Ann Kowalski is reviewing it now."
                            + " Your notes are kept as a draft.");
        }
        assertThat(procedures.renew("bob", bob.held().stream().map(HeldArticle::lease).toList()))
                .extracting(ReviewProcedures.Renewed::renewed).containsOnly(false);
    }

    /**
     * An article the editor gave back is not handed straight back to them (for ten minutes, or until
     * someone else has had it); it goes to the next editor first.
     */
    @ParameterizedTest
    @EnumSource(ClaimStrategyKind.class)
    void aReleasedArticleGoesToSomeoneElseBeforeItComesBackToTheEditorWhoGaveItBack(ClaimStrategyKind strategy) {
        ReviewProcedures procedures = procedures(strategy);
        List<Long> ids = Fixtures.articles(dsl, "news", 2, 3, -60);
        HeldArticle first = procedures.claim("ann", null, null, null).held().stream().filter(a -> a.id() == ids.get(0))
                .findFirst().orElseThrow();
        assertThat(procedures.release("ann", first.lease(), "given back")).isTrue();

        assertThat(OperationsFixture.ids(procedures.claim("ann", null, null, null))).as("her reload passes over it")
                .containsExactly(ids.get(1));
        ReviewProcedures.Claimed bob = procedures.claim("bob", null, null, null);
        assertThat(OperationsFixture.ids(bob)).as("someone else gets it").containsExactly(ids.get(0));
        assertThat(procedures.release("bob", bob.held().get(0).lease(), "given back")).isTrue();
        assertThat(OperationsFixture.ids(procedures.claim("ann", null, null, null)))
                .as("after someone else had it, she may get it again").containsExactlyInAnyOrder(ids.get(1), ids.get(0));
    }

    /**
     * Within a priority the earliest due time is taken first, articles without one after every
     * article with one (docs/workflow.md, "Claim order"): no claim takes a later-due article while an
     * earlier-due one of the same priority waits on the desk, however long the others waited.
     */
    @ParameterizedTest
    @EnumSource(ClaimStrategyKind.class)
    void noClaimTakesALaterDueArticleWhileAnEarlierDueOneOfTheSamePriorityWaits(ClaimStrategyKind strategy) {
        List<Long> undated = Fixtures.articles(dsl, "news", 40, 3, -3600); // waited longest, due at no set time
        List<Long> dated = Fixtures.articles(dsl, "news", 12, 3, -60);
        List<Integer> tenMinutes = new ArrayList<>(java.util.stream.IntStream.rangeClosed(1, 12).boxed().toList());
        java.util.Collections.shuffle(tenMinutes, new java.util.Random(39));
        Instant now = serverNow().toInstant(ZoneOffset.UTC).truncatedTo(ChronoUnit.MILLIS);
        Map<Long, Instant> dueAt = new HashMap<>();
        for (int i = 0; i < dated.size(); i++) {
            dueAt.put(dated.get(i), now.plus(Duration.ofMinutes(10L * tenMinutes.get(i))));
            due(dated.get(i), dueAt.get(dated.get(i)));
        }
        List<Long> earliestFirst = dated.stream().sorted(Comparator.comparing(dueAt::get)).toList();
        ReviewProcedures procedures = procedures(strategy);

        List<Long> taken = new ArrayList<>();
        while (taken.size() < 15) {
            ReviewProcedures.Claimed claimed = procedures.claim("ann", null, 5, null);
            for (HeldArticle held : claimed.held()) {
                assertThat(held.dueAt()).as("the claim tells the due time").isEqualTo(dueAt.get(held.id()));
                taken.add(held.id());
                procedures.decide("ann", held.lease(), UUID.randomUUID(), Verdict.APPROVE, "");
            }
        }
        assertThat(taken.subList(0, 12)).as("every due article, earliest first").containsExactlyElementsOf(earliestFirst);
        assertThat(undated).containsAll(taken.subList(12, 15));
    }

    @ParameterizedTest
    @EnumSource(ClaimStrategyKind.class)
    void priorityComesBeforeTheDueTime(ClaimStrategyKind strategy) {
        Instant now = serverNow().toInstant(ZoneOffset.UTC).truncatedTo(ChronoUnit.MILLIS);
        long lateButLow = Fixtures.articles(dsl, "news", 1, 3, -600).get(0);
        due(lateButLow, now.minus(Duration.ofMinutes(5)));
        long dueSoon = Fixtures.articles(dsl, "news", 1, 2, -60).get(0);
        due(dueSoon, now.plus(Duration.ofMinutes(20)));
        long urgentUndated = Fixtures.articles(dsl, "news", 1, 1, -30).get(0);

        assertThat(OperationsFixture.ids(procedures(strategy).claim("ann", null, 3, null)))
                .containsExactly(urgentUndated, dueSoon, lateButLow);
    }

    /**
     * Work that came back (a lease given back or run out: lane 0) goes before fresh work of the same
     * priority and due time, not before an earlier-due article: the due time comes first.
     */
    @ParameterizedTest
    @EnumSource(ClaimStrategyKind.class)
    void workThatCameBackGoesFirstAmongArticlesDueAtTheSameTimeOnly(ClaimStrategyKind strategy) {
        Instant now = serverNow().toInstant(ZoneOffset.UTC).truncatedTo(ChronoUnit.MILLIS);
        Instant edition = now.plus(Duration.ofHours(1));
        List<Long> given = Fixtures.articles(dsl, "news", 2, 3, -700);
        long backAtEdition = given.get(0);
        long backUndated = given.get(1);
        due(backAtEdition, edition);
        ReviewProcedures procedures = procedures(strategy);
        for (HeldArticle held : procedures.claim("bob", null, null, null).held()) {
            assertThat(procedures.release("bob", held.lease(), "given back")).isTrue();
        }
        long freshUndated = Fixtures.articles(dsl, "news", 1, 3, -900).get(0);
        long freshAtEdition = Fixtures.articles(dsl, "news", 1, 3, -800).get(0);
        due(freshAtEdition, edition);
        long freshEarlier = Fixtures.articles(dsl, "news", 1, 3, -60).get(0);
        due(freshEarlier, now.plus(Duration.ofMinutes(30)));

        assertThat(OperationsFixture.ids(procedures.claim("ann", null, 5, null)))
                .containsExactly(freshEarlier, backAtEdition, freshAtEdition, backUndated, freshUndated);
    }

    /**
     * Claims compare due times to the minute (a newsroom's deadlines are minutes): articles due in
     * the same minute are equally due, and work that came back goes first among them; an article due
     * in the next minute waits for both, however long it waited. The exact due time is what the
     * claim tells.
     */
    @ParameterizedTest
    @EnumSource(ClaimStrategyKind.class)
    void dueTimesCountToTheMinute(ClaimStrategyKind strategy) {
        Instant minute = serverNow().toInstant(ZoneOffset.UTC).plus(Duration.ofHours(1)).truncatedTo(ChronoUnit.MINUTES);
        long backLaterInTheMinute = Fixtures.articles(dsl, "news", 1, 3, -700).get(0);
        due(backLaterInTheMinute, minute.plusSeconds(50));
        ReviewProcedures procedures = procedures(strategy);
        for (HeldArticle held : procedures.claim("bob", null, null, null).held()) {
            assertThat(procedures.release("bob", held.lease(), "given back")).isTrue();
        }
        long nextMinute = Fixtures.articles(dsl, "news", 1, 3, -900).get(0);
        due(nextMinute, minute.plusSeconds(60));
        long freshEarlierInTheMinute = Fixtures.articles(dsl, "news", 1, 3, -800).get(0);
        due(freshEarlierInTheMinute, minute.plusSeconds(10));

        ReviewProcedures.Claimed claimed = procedures.claim("ann", null, 3, null);
        assertThat(OperationsFixture.ids(claimed)).containsExactly(backLaterInTheMinute, freshEarlierInTheMinute, nextMinute);
        assertThat(claimed.held().get(0).dueAt()).as("the exact due time").isEqualTo(minute.plusSeconds(50));
    }

    private void due(long articleId, Instant at) {
        DueTimes.over(dsl).set("sue", articleId, at, "the edition");
    }

    private static final Duration SPORT_PLUS_A_MINUTE = OperationsFixture.SPORT_LEASE.plusMinutes(1);

    private String name(String editorId) {
        return new Newsroom(dsl).requireEditor(editorId).displayName();
    }

    private static List<Long> concat(List<Long> a, List<Long> b) {
        List<Long> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }
}
