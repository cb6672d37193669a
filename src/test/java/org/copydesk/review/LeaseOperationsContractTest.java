package org.copydesk.review;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.groups.Tuple.tuple;
import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.DECISION;
import static org.copydesk.db.schema.Tables.LEASE_EVENT;
import static org.copydesk.db.schema.Tables.OUTCOME_EVENT;

import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.TimeZone;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.copydesk.db.DataSources;
import org.copydesk.db.Database;
import org.copydesk.db.schema.enums.ArticleStatus;
import org.copydesk.db.schema.tables.records.ArticleRecord;
import org.copydesk.db.schema.tables.records.LeaseEventRecord;
import org.copydesk.lease.ClaimStrategyKind;
import org.copydesk.lease.Lease;
import org.copydesk.lease.LeaseLost;
import org.copydesk.lease.LostReason;
import org.copydesk.lease.RowKey;
import org.copydesk.lease.ServerClock;
import org.copydesk.lease.SessionAccount;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.TestDatabase;
import org.junit.jupiter.api.Test;

/**
 * The contract of the database's operations on a lease once it is given: renew, release, decide,
 * the release service's sweep, and the supervisor's force-release, reassign and extend. Each write
 * under a lease is fenced by owner and token (a stale one changes nothing and its holder is told
 * why, from the history), expiry is the server's clock, and each operation writes its history rows
 * in the same transaction. The claim's own contract is {@link ClaimContractTest}.
 */
class LeaseOperationsContractTest extends OperationsFixture {

    private final ReviewProcedures procedures;

    LeaseOperationsContractTest(TestDatabase db) {
        super(db);
        this.procedures = procedures();
    }

    private Lease claimOne(String editor, int leaseSeconds) {
        List<HeldArticle> held = procedures.claim(editor, null, 1, leaseSeconds).held();
        assertThat(held).hasSize(1);
        return held.get(0).lease();
    }

    private static List<Lease> leases(ReviewProcedures.Claimed claimed) {
        return claimed.held().stream().map(HeldArticle::lease).toList();
    }

    private List<LeaseEventRecord> historyOf(long id, String action) {
        return history(id).stream().filter(e -> e.getAction().equals(action)).toList();
    }

    private String explain(LeaseLost lost) {
        Newsroom people = new Newsroom(dsl);
        return LeaseLossPhrases.explain(lost, "Cup final", id -> people.editor(id).map(Editor::displayName).orElse(id)).text();
    }

    // --- renew ----------------------------------------------------------------------------------

    @Test
    void aRenewalExtendsOnlyTheHoldersLeaseUnderItsCurrentTokenAndIsRecorded() {
        Fixtures.articles(dsl, "news", 1, 3, -60);
        Lease lease = claimOne("ann", 60);

        assertThat(procedures.renew("ann", List.of(OperationsFixture.withToken(lease, lease.token() + 7))))
                .extracting(ReviewProcedures.Renewed::renewed).containsExactly(false);
        assertThat(procedures.renew("bob", List.of(OperationsFixture.heldBy(lease, "bob"))))
                .extracting(ReviewProcedures.Renewed::renewed).containsExactly(false);
        assertThat(article(OperationsFixture.id(lease)).getExpiresAt()).isEqualTo(lease.expiresAt());

        ReviewProcedures.Renewed renewed = procedures.renew("ann", List.of(lease)).get(0);

        assertThat(renewed.renewed()).isTrue();
        assertThat(renewed.lease().token()).isEqualTo(lease.token());
        assertThat(renewed.lease().remainingAtRead()).as("to the desk's length from now")
                .isBetween(OperationsFixture.NEWS_LEASE.minusSeconds(2), OperationsFixture.NEWS_LEASE);
        ArticleRecord article = article(OperationsFixture.id(lease));
        assertThat(article.getRenewals()).isEqualTo(1);
        assertThat(historyOf(article.getId(), "renew")).extracting(LeaseEventRecord::getActor, LeaseEventRecord::getOldOwner,
                        LeaseEventRecord::getNewOwner, LeaseEventRecord::getOldToken, LeaseEventRecord::getLeaseToken,
                        LeaseEventRecord::getExpiresAt)
                .containsExactly(tuple("ann", "ann", "ann", lease.token(), lease.token(), article.getExpiresAt()));
    }

    @Test
    void aRenewalStopsAtTheDesksMaximumHoldAndNeverShortensALease() {
        Fixtures.articles(dsl, "news", 2, 3, -60);
        List<Lease> oneMinute = leases(procedures.claim("ann", null, 2, 60));
        Lease shortLease = oneMinute.get(0);
        Lease longLease = procedures.extend("sue", OperationsFixture.id(oneMinute.get(1)), 1800).orElseThrow();
        // both were claimed 3 h 55 min ago: the news desk's maximum hold (4 h) ends in 5 minutes
        dsl.update(ARTICLE).set(ARTICLE.CLAIMED_AT, ServerClock.nowPlus(Duration.ofMinutes(-235))).where(ARTICLE.LOCKED_BY.eq("ann"))
                .execute();

        List<ReviewProcedures.Renewed> renewed = procedures.renew("ann", List.of(shortLease, longLease));

        assertThat(renewed).extracting(ReviewProcedures.Renewed::renewed).containsExactly(true, true);
        Lease capped = renewed.stream().filter(r -> r.articleId() == OperationsFixture.id(shortLease)).findFirst()
                .orElseThrow().lease();
        Lease kept = renewed.stream().filter(r -> r.articleId() == OperationsFixture.id(longLease)).findFirst().orElseThrow()
                .lease();
        assertThat(capped.remainingAtRead()).isBetween(Duration.ofMinutes(4), Duration.ofMinutes(5));
        assertThat(kept.expiresAt()).as("never shorter than it was").isEqualTo(longLease.expiresAt());
    }

    @Test
    void aHeartbeatRenewsTheEditorsOwnLeasesAndNoOneElses() {
        Fixtures.articles(dsl, "news", 4, 3, -60);
        List<Lease> anns = leases(procedures.claim("ann", null, 2, 60));
        List<Lease> bobs = leases(procedures.claim("bob", null, 2, 60));
        List<Lease> asked = new ArrayList<>(anns);
        asked.add(OperationsFixture.heldBy(bobs.get(0), "ann"));

        List<ReviewProcedures.Renewed> renewed = procedures.renew("ann", asked);

        assertThat(renewed).extracting(ReviewProcedures.Renewed::articleId, ReviewProcedures.Renewed::renewed)
                .containsExactlyInAnyOrder(tuple(OperationsFixture.id(anns.get(0)), true), tuple(OperationsFixture.id(anns.get(1)), true),
                        tuple(OperationsFixture.id(bobs.get(0)), false));
        assertThat(article(OperationsFixture.id(bobs.get(0))).getExpiresAt()).isEqualTo(bobs.get(0).expiresAt());
        assertThat(article(OperationsFixture.id(bobs.get(0))).getLockedBy()).isEqualTo("bob");
        assertThat(dsl.fetchCount(LEASE_EVENT, LEASE_EVENT.ACTION.eq("renew"))).isEqualTo(2);
    }

    @Test
    void aLapsedLeaseNobodyTookIsStillTheHoldersAndRenewsUnderTheSameToken() {
        Fixtures.articles(dsl, "sport", 1, 3, -60);
        Lease lease = claimOne("cat", 60);
        Fixtures.letTimePass(dsl, Duration.ofMinutes(5), List.of(OperationsFixture.id(lease)));

        ReviewProcedures.Renewed renewed = procedures.renew("cat", List.of(lease)).get(0);

        assertThat(renewed.renewed()).isTrue();
        assertThat(renewed.lease().token()).isEqualTo(lease.token());
        assertThat(renewed.lease().remainingAtRead()).isGreaterThan(OperationsFixture.SPORT_LEASE.minusSeconds(2));
    }

    // --- release --------------------------------------------------------------------------------

    @Test
    void aReleaseFreesTheArticleAheadOfFreshWorkAndASecondReleaseFindsItGone() {
        Fixtures.articles(dsl, "news", 1, 3, -60);
        Lease lease = claimOne("ann", 600);
        assertThat(procedures.release("ann", OperationsFixture.withToken(lease, lease.token() - 1), "stale")).isFalse();
        assertThat(procedures.release("bob", OperationsFixture.heldBy(lease, "bob"), "not his")).isFalse();
        assertThat(article(OperationsFixture.id(lease)).getLockedBy()).isEqualTo("ann");

        assertThat(procedures.release("ann", lease, "given back by the editor")).isTrue();

        ArticleRecord article = article(OperationsFixture.id(lease));
        assertThat(article.getLockedBy()).isNull();
        assertThat(article.getExpiresAt()).isNull();
        assertThat(article.getLeaseToken()).as("the token stays: the next lease gets a higher one").isEqualTo(lease.token());
        assertThat(article.getQueueLane()).as("work that came back goes before fresh work").isZero();
        assertThat(historyOf(article.getId(), "release")).extracting(LeaseEventRecord::getActor, LeaseEventRecord::getOldOwner,
                        LeaseEventRecord::getNewOwner, LeaseEventRecord::getOldToken, LeaseEventRecord::getLeaseToken,
                        LeaseEventRecord::getDetail)
                .containsExactly(tuple("ann", "ann", null, lease.token(), null, "given back by the editor"));
        assertThat(procedures.release("ann", lease, "again")).isFalse();
        LeaseLost lost = leases.diagnose(lease);
        assertThat(lost.reason()).isEqualTo(LostReason.RELEASED);
        assertThat(explain(lost)).contains("already released or decided", "kept as a draft");
    }

    // --- decide ---------------------------------------------------------------------------------

    @Test
    void aDecisionIsAppliedOnlyUnderTheLeaseOnceWithItsHistoryItsOutcomeAndTheDraftRemoved() {
        List<Long> ids = Fixtures.articles(dsl, "news", 2, 3, -60);
        List<Lease> held = leases(procedures.claim("ann", null, null, null));
        Lease first = held.stream().filter(l -> OperationsFixture.id(l) == ids.get(0)).findFirst().orElseThrow();
        Lease second = held.stream().filter(l -> OperationsFixture.id(l) == ids.get(1)).findFirst().orElseThrow();
        procedures.saveDraft("ann", ids.get(1), "reject", "Libel risk");

        UUID request = UUID.randomUUID();
        ReviewProcedures.Decided decided = procedures.decide("ann", first, request, Verdict.APPROVE, "good");
        ReviewProcedures.Decided again = procedures.decide("ann", first, request, Verdict.APPROVE, "good");
        ReviewProcedures.Decided stale = procedures.decide("ann", OperationsFixture.withToken(second, second.token() - 1),
                UUID.randomUUID(), Verdict.REJECT, "Libel risk");

        assertThat(decided.outcome()).isEqualTo(ReviewProcedures.DecideOutcome.RECORDED);
        assertThat(decided.status()).isEqualTo("approved");
        assertThat(again.outcome()).as("a retried request").isEqualTo(ReviewProcedures.DecideOutcome.ALREADY);
        assertThat(stale.outcome()).isEqualTo(ReviewProcedures.DecideOutcome.LOST);
        assertThat(history(ids.get(0))).extracting(LeaseEventRecord::getAction, LeaseEventRecord::getActor,
                        LeaseEventRecord::getOldOwner, LeaseEventRecord::getOldToken, LeaseEventRecord::getDetail)
                .containsExactly(tuple("claim", "ann", null, 0L, null), tuple("complete", "ann", "ann", first.token(), "approve"),
                        tuple("approve", "ann", null, null, "good"));
        assertThat(dsl.fetchCount(DECISION, DECISION.REQUEST_ID.eq(request.toString()).and(DECISION.LEASE_TOKEN.eq(first.token()))))
                .isEqualTo(1);
        assertThat(dsl.fetchCount(DECISION)).isEqualTo(1);
        assertThat(dsl.fetchCount(OUTCOME_EVENT, OUTCOME_EVENT.IDEMPOTENCY_KEY.eq(request.toString())
                .and(OUTCOME_EVENT.OUTCOME.eq("approved")))).isEqualTo(1);
        ArticleRecord untouched = article(ids.get(1));
        assertThat(untouched.getStatus()).isEqualTo(ArticleStatus.queued);
        assertThat(untouched.getLockedBy()).isEqualTo("ann");
        assertThat(new Drafts(dsl, procedures, "nobody").load(ids.get(1), "ann")).as("the draft survives a lost lease").isPresent();

        assertThat(procedures.decide("ann", second, UUID.randomUUID(), Verdict.REJECT, "Libel risk").outcome())
                .isEqualTo(ReviewProcedures.DecideOutcome.RECORDED);
        assertThat(new Drafts(dsl, procedures, "nobody").load(ids.get(1), "ann")).as("the decision removes it").isEmpty();
        Lease nowhere = new Lease(RowKey.of(Long.MAX_VALUE), "ann", 1, null, null);
        assertThat(procedures.decide("ann", nowhere, UUID.randomUUID(), Verdict.APPROVE, "").outcome())
                .as("an article that does not exist").isEqualTo(ReviewProcedures.DecideOutcome.GONE);
    }

    // --- the release service --------------------------------------------------------------------

    @Test
    void theSweepFreesOnlyLapsedLeasesOldestFirstInBatchesAndRecordsEachExpiry() {
        Fixtures.articles(dsl, "news", 10, 3, -60);
        Fixtures.articles(dsl, "sport", 2, 3, -60);
        List<Long> anns = OperationsFixture.ids(procedures.claim("ann", List.of("news"), null, 60));
        List<Long> bobs = OperationsFixture.ids(procedures.claim("bob", List.of("news"), null, 60));
        procedures.claim("cat", null, null, null);
        Fixtures.letTimePass(dsl, Duration.ofMinutes(3), bobs);
        Fixtures.letTimePass(dsl, Duration.ofMinutes(2), anns);

        List<Lease> released = new ArrayList<>();
        List<Lease> chunk;
        do {
            chunk = procedures.releaseExpired(3);
            released.addAll(chunk);
        } while (chunk.size() == 3);

        assertThat(released).hasSize(10).extracting(Lease::owner).doesNotContain("cat");
        assertThat(released.subList(0, 5)).as("the longest lapsed first").extracting(Lease::owner).containsOnly("bob");
        assertThat(dsl.fetchCount(ARTICLE, ARTICLE.LOCKED_BY.isNotNull())).isEqualTo(2);
        String sweeper = SessionAccount.name(dsl);
        Lease one = released.get(0);
        assertThat(historyOf(OperationsFixture.id(one), "expire")).singleElement().satisfies(e -> {
            assertThat(e.getActor()).isEqualTo(sweeper);
            assertThat(e.getOldOwner()).isEqualTo("bob");
            assertThat(e.getOldToken()).isEqualTo(one.token());
            assertThat(e.getDetail()).startsWith("lease expired at ");
        });
        assertThat(procedures.releaseExpired(3)).isEmpty();
        LeaseLost lost = leases.diagnose(one);
        assertThat(lost.reason()).isEqualTo(LostReason.EXPIRED);
        assertThat(explain(lost)).contains("ran out and it went back to the queue");
    }

    @Test
    void sweepsSideBySideNeverEndALeaseTwice() throws Exception {
        Newsroom people = new Newsroom(dsl);
        List<String> editors = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            editors.add("sweep" + i);
            people.addEditor("sweep" + i, "Sweep " + i, Role.EDITOR, 5, List.of("news"));
        }
        Fixtures.articles(dsl, "news", 60, 3, -60);
        editors.forEach(e -> procedures.claim(e, null, null, 60));
        dsl.update(ARTICLE).set(ARTICLE.EXPIRES_AT, ServerClock.nowPlus(Duration.ofSeconds(-1))).where(ARTICLE.LOCKED_BY.isNotNull())
                .execute();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<Integer>> sweeps = pool.invokeAll(Collections.nCopies(4, () -> {
                int total = 0;
                for (List<Lease> chunk = procedures.releaseExpired(4); !chunk.isEmpty(); chunk = procedures.releaseExpired(4)) {
                    total += chunk.size();
                }
                return total;
            }));
            int total = 0;
            for (Future<Integer> f : sweeps) {
                total += f.get();
            }
            // a sweep passes over rows another has locked and stops at a short chunk; the next one finds the rest
            total += procedures.releaseExpired(100).size();
            assertThat(total).isEqualTo(60);
            assertThat(dsl.fetchCount(LEASE_EVENT, LEASE_EVENT.ACTION.eq("expire"))).isEqualTo(60);
        } finally {
            pool.shutdownNow();
        }
    }

    // --- the supervisor's operations ------------------------------------------------------------

    @Test
    void aForceReleaseTellsTheHolderWhoTookTheArticleBackAndWhy() {
        Fixtures.articles(dsl, "news", 1, 3, -60);
        Lease lease = claimOne("ann", 600);

        assertThatThrownBy(() -> procedures.forceRelease("sue", OperationsFixture.id(lease), " "))
                .isInstanceOf(OperationRefusedException.class).hasMessage("Give a reason; the editor will see it.");
        Lease ended = procedures.forceRelease("sue", OperationsFixture.id(lease), "legal hold").orElseThrow();

        assertThat(ended.owner()).isEqualTo("ann");
        assertThat(ended.token()).isEqualTo(lease.token());
        assertThat(article(OperationsFixture.id(lease)).getLockedBy()).isNull();
        assertThat(historyOf(OperationsFixture.id(lease), "force_release")).extracting(LeaseEventRecord::getActor,
                        LeaseEventRecord::getOldOwner, LeaseEventRecord::getOldToken, LeaseEventRecord::getDetail)
                .containsExactly(tuple("sue", "ann", lease.token(), "legal hold"));
        assertThat(procedures.decide("ann", lease, UUID.randomUUID(), Verdict.APPROVE, "").outcome())
                .isEqualTo(ReviewProcedures.DecideOutcome.LOST);
        LeaseLost lost = leases.diagnose(lease);
        assertThat(lost.reason()).isEqualTo(LostReason.FORCE_RELEASED);
        assertThat(lost.byActor()).isEqualTo("sue");
        assertThat(lost.detail()).isEqualTo("legal hold");
        assertThat(explain(lost)).isEqualTo("Sue Lindqvist took \u201cCup final\u201d back: \u201clegal hold\u201d."
                + " Your notes go with it to whoever reviews it next.");
        assertThat(procedures.forceRelease("sue", OperationsFixture.id(lease), "again")).as("nothing left to end").isEmpty();
    }

    @Test
    void aReassignmentGivesANewTokenAndTheFormerHolderLearnsWhoGaveItToWhom() {
        Fixtures.articles(dsl, "news", 1, 3, -60);
        Lease ann = claimOne("ann", 600);
        long id = OperationsFixture.id(ann);

        assertThatThrownBy(() -> procedures.reassign("sue", id, "cat", true, false, null))
                .isInstanceOf(OperationRefusedException.class).hasMessage("That editor does not work on this article's desk.");
        Lease bob = procedures.reassign("sue", id, "bob", false, false, "ann is off sick");

        assertThat(bob.owner()).isEqualTo("bob");
        assertThat(bob.token()).isEqualTo(ann.token() + 1);
        assertThat(historyOf(id, "reassign")).extracting(LeaseEventRecord::getActor, LeaseEventRecord::getOldOwner,
                        LeaseEventRecord::getNewOwner, LeaseEventRecord::getOldToken, LeaseEventRecord::getLeaseToken,
                        LeaseEventRecord::getExpiresAt, LeaseEventRecord::getDetail)
                .containsExactly(tuple("sue", "ann", "bob", ann.token(), bob.token(), bob.expiresAt(), "ann is off sick"));
        assertThat(procedures.renew("ann", List.of(ann))).extracting(ReviewProcedures.Renewed::renewed).containsExactly(false);
        LeaseLost lost = leases.diagnose(ann);
        assertThat(lost.reason()).isEqualTo(LostReason.REASSIGNED);
        assertThat(lost.currentOwner()).isEqualTo("bob");
        assertThat(explain(lost)).isEqualTo("Sue Lindqvist gave \u201cCup final\u201d to Bob Okafor: \u201cann is off sick\u201d."
                + " Your notes went with it.");
        assertThat(procedures.renew("bob", List.of(bob))).extracting(ReviewProcedures.Renewed::renewed).containsExactly(true);
    }

    @Test
    void anExtensionMovesTheExpiryWithinTheDesksMaximumHold() {
        Fixtures.articles(dsl, "news", 1, 3, -60);
        Lease lease = claimOne("ann", 300);
        long id = OperationsFixture.id(lease);

        Lease extended = procedures.extend("sue", id, Duration.ofMinutes(30).toSeconds()).orElseThrow();
        Lease capped = procedures.extend("sue", id, Duration.ofHours(20).toSeconds()).orElseThrow();

        assertThat(extended.token()).isEqualTo(lease.token());
        assertThat(extended.expiresAt()).isEqualTo(lease.expiresAt().plusMinutes(30));
        assertThat(capped.remainingAtRead()).as("at most 4 hours after the claim")
                .isBetween(Duration.ofHours(4).minusSeconds(5), Duration.ofHours(4));
        assertThat(historyOf(id, "extend")).extracting(LeaseEventRecord::getActor, LeaseEventRecord::getOldToken,
                        LeaseEventRecord::getLeaseToken, LeaseEventRecord::getDetail)
                .containsExactly(tuple("sue", lease.token(), lease.token(), "extended by 30 min"),
                        tuple("sue", lease.token(), lease.token(), "extended by 1200 min"));
        assertThatThrownBy(() -> procedures.extend("sue", id, Duration.ofDays(2).toSeconds()))
                .isInstanceOf(OperationRefusedException.class).hasMessage("Give between one second and one day more.");
    }

    // --- time and words -------------------------------------------------------------------------

    /**
     * Client in Los Angeles, server in a +09:30 zone, sessions in UTC: leases are computed and
     * compared by the server's clock, and what the client reads is the server's UTC time.
     */
    @Test
    void expiryIsTheServersClockWhateverTheTimeZonesOfClientAndServer() {
        Fixtures.articles(dsl, "news", 2, 3, -60);
        TimeZone original = TimeZone.getDefault();
        TestServerTimeZone serverZone = TestServerTimeZone.set(dsl, "+09:30");
        TimeZone.setDefault(TimeZone.getTimeZone("America/Los_Angeles"));
        // a client started in that zone: its own pool, opened after the zone was set
        try (Database client = Database.open(db.url(), db.endpoint().user(), db.endpoint().password().toCharArray(), null,
                DataSources.PoolSize.of(2), Database.SchemaAction.NONE, null)) {
            ReviewProcedures far = new ReviewProcedures(DatabaseOperations.withDefaultRetries(client.dsl()),
                    ClaimStrategyKind.SKIP_LOCKED);
            Lease oneSecond = far.claim("ann", null, 1, 1).held().get(0).lease();
            Lease tenMinutes = far.claim("bob", null, 1, 600).held().get(0).lease();

            assertThat(tenMinutes.remainingAtRead()).isBetween(Duration.ofMinutes(10).minusSeconds(2), Duration.ofMinutes(10));
            assertThat(Duration.between(LocalDateTime.now(ZoneOffset.UTC), tenMinutes.expiresAt()))
                    .isBetween(Duration.ofMinutes(9), Duration.ofMinutes(11));
            assertThat(far.claim("sue", null, null, null).claimed()).isZero();
            Fixtures.letTimePass(dsl, Duration.ofSeconds(2), List.of(OperationsFixture.id(oneSecond), OperationsFixture.id(tenMinutes)));
            assertThat(OperationsFixture.ids(far.claim("sue", null, null, null))).as("only the lease that ran out")
                    .containsExactly(OperationsFixture.id(oneSecond));
        } finally {
            TimeZone.setDefault(original);
            serverZone.restore();
        }
    }

    @Test
    void aRefusalComesBackInTheDatabasesOwnWords() {
        assertThatThrownBy(() -> operations.fetchMany(Operation.CLAIM_ARTICLES, "ann", null, null, null, "FASTEST"))
                .isInstanceOf(OperationRefusedException.class).hasMessage("Unknown claim strategy.");
    }
}
