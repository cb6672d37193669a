package org.copydesk.review;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.groups.Tuple.tuple;
import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.DECISION;
import static org.copydesk.db.schema.Tables.OUTCOME_EVENT;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.copydesk.db.schema.tables.records.ArticleRecord;
import org.copydesk.db.schema.tables.records.LeaseEventRecord;
import org.copydesk.lease.ClaimStrategyKind;
import org.copydesk.lease.Lease;
import org.copydesk.review.imports.ArticleImporter;
import org.copydesk.review.imports.ImportListener;
import org.copydesk.review.imports.ImportReport;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.TestDatabase;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The contract of a desk's review chain (docs/workflow.md), for each claim strategy: on the news
 * desk, Copy edit (the desk's editors) → Legal (entered when asked; Lee only, 10-minute leases) →
 * Sign-off (four eyes). An article is at one stage at a time; approving moves it on in the
 * decision's transaction, unheld, with its history, decision row and a stage_passed event; the
 * last stage's approval is the final decision with today's event; a send-back to an earlier stage
 * starts a new pass at the front of that stage; a lapsed lease goes back to the same stage. The
 * races of several editors at every stage: {@link StageChainRaceTest}.
 */
class StageChainContractTest extends OperationsFixture {

    ReviewStages stages;

    StageChainContractTest(TestDatabase db) {
        super(db);
    }

    @BeforeEach
    void chain() {
        Newsroom n = new Newsroom(dsl, operations);
        n.addEditor("lee", "Lee Legal", Role.EDITOR, 5, List.of());
        n.addEditor("dan", "Dan Chief", Role.EDITOR, 5, List.of("news"));
        stages = ReviewStages.over(dsl);
        threeStageNewsDesk(stages, "lee");
    }

    /** Copy edit → Legal (when asked, named takers, 10 min) → Sign-off (four eyes) on the news desk. */
    static void threeStageNewsDesk(ReviewStages stages, String lawyer) {
        stages.set(null, new ReviewStages.Settings("news", "copy", "Copy edit", null, null, false, false, false));
        stages.set(null, new ReviewStages.Settings("news", "legal", "Legal", null, Duration.ofMinutes(10), true, false, true));
        stages.set(null, new ReviewStages.Settings("news", "signoff", "Sign-off", null, null, false, true, false));
        stages.setTakers(null, "news", "legal", List.of(lawyer));
    }

    private Lease claimOne(ReviewProcedures p, String editor, long articleId) {
        return p.claim(editor, null, null, null).held().stream().filter(h -> h.id() == articleId).findFirst()
                .orElseThrow(() -> new AssertionError(editor + " was not handed article " + articleId)).lease();
    }

    private ReviewProcedures.Decided decide(ReviewProcedures p, Lease lease, Verdict verdict, String notes, String to, List<String> ask) {
        return p.decide(lease.owner(), lease, UUID.randomUUID(), verdict, notes, to, ask);
    }

    /** A stage's lease may be longer than its desk's (up to the desk's longest hold): claims and renewals both give it. */
    @ParameterizedTest
    @EnumSource(ClaimStrategyKind.class)
    void aStageLongerThanItsDesksLeaseGivesItsOwnLengthToClaimsAndRenewals(ClaimStrategyKind strategy) {
        ReviewProcedures p = procedures(strategy);
        stages.set(null, new ReviewStages.Settings("news", "copy", "Copy edit", null, Duration.ofHours(2), false, false, false));
        long id = Fixtures.articles(dsl, "news", 1, 3, -60).get(0);

        Lease copy = claimOne(p, "ann", id);
        assertThat(Duration.between(copy.serverTime(), copy.expiresAt())).as("the stage's 2 h, not the desk's %s", NEWS_LEASE)
                .isEqualTo(Duration.ofHours(2));
        Fixtures.letTimePass(dsl, Duration.ofMinutes(10), List.of(id));
        Lease renewed = p.renew("ann", List.of(copy)).get(0).lease();
        assertThat(Duration.between(renewed.serverTime(), renewed.expiresAt())).as("renewed to 2 h from now")
                .isEqualTo(Duration.ofHours(2));
    }

    @ParameterizedTest
    @EnumSource(ClaimStrategyKind.class)
    void anArticleGoesThroughEveryStageItEntersEachDecidedOnceUnderItsOwnLease(ClaimStrategyKind strategy) {
        ReviewProcedures p = procedures(strategy);
        long id = Fixtures.articles(dsl, "news", 1, 3, -60).get(0);
        assertThat(article(id).getStageId()).as("a new article starts at the first stage").isEqualTo("copy");

        Lease copy = claimOne(p, "ann", id);
        ReviewProcedures.Decided passed = decide(p, copy, Verdict.APPROVE, "tightened the intro", null, List.of("legal"));
        assertThat(passed.outcome()).isEqualTo(ReviewProcedures.DecideOutcome.RECORDED);
        assertThat(passed.status()).isEqualTo("queued");
        assertThat(passed.stage()).isEqualTo("legal");
        ArticleRecord atLegal = article(id);
        assertThat(atLegal.getStageId()).isEqualTo("legal");
        assertThat(atLegal.getLockedBy()).isNull();
        assertThat(atLegal.getStatus().getLiteral()).isEqualTo("queued");
        assertThat(history(id)).extracting(LeaseEventRecord::getAction).endsWith("claim", "complete", "stage");
        assertThat(dsl.select(OUTCOME_EVENT.OUTCOME, OUTCOME_EVENT.STAGE_ID, OUTCOME_EVENT.TO_STAGE_ID).from(OUTCOME_EVENT)
                .where(OUTCOME_EVENT.ARTICLE_ID.eq(id)).fetch().map(r -> tuple(r.value1(), r.value2(), r.value3())))
                .containsExactly(tuple("stage_passed", "copy", "legal"));

        // Legal is Lee's alone, with its own lease length
        assertThat(p.claim("ann", null, null, null).claimed()).as("Ann does not take Legal").isZero();
        assertThat(p.claim("dan", null, null, null).claimed()).as("nor Dan").isZero();
        assertThat(p.claim("lee", null, null, null).held()).extracting(HeldArticle::stage).containsExactly("legal");
        Lease legal = claimOne(p, "lee", id);
        assertThat(Duration.between(legal.serverTime(), legal.expiresAt())).isEqualTo(Duration.ofMinutes(10));
        assertThat(decide(p, legal, Verdict.APPROVE, "", null, List.of()).stage()).isEqualTo("signoff");

        // four eyes: Ann copy-edited it, so her claim passes it over; Dan signs it off
        assertThat(p.claim("ann", null, null, null).claimed()).as("Ann may not sign off what she copy-edited").isZero();
        Lease signoff = claimOne(p, "dan", id);
        ReviewProcedures.Decided last = decide(p, signoff, Verdict.APPROVE, "", null, List.of());
        assertThat(last.status()).isEqualTo("approved");
        assertThat(article(id).getDecidedBy()).isEqualTo("dan");

        assertThat(dsl.select(DECISION.STAGE_ID, DECISION.PASS, DECISION.EDITOR_ID, DECISION.VERDICT).from(DECISION)
                .where(DECISION.ARTICLE_ID.eq(id)).orderBy(DECISION.ID).fetch()
                .map(r -> tuple(r.value1(), r.value2(), r.value3(), r.value4().getLiteral())))
                .containsExactly(tuple("copy", 1, "ann", "approve"), tuple("legal", 1, "lee", "approve"),
                        tuple("signoff", 1, "dan", "approve"));
        assertThat(dsl.select(OUTCOME_EVENT.OUTCOME).from(OUTCOME_EVENT).where(OUTCOME_EVENT.ARTICLE_ID.eq(id))
                .orderBy(OUTCOME_EVENT.ID).fetch(OUTCOME_EVENT.OUTCOME))
                .as("one event per stage step; the final one is today's").containsExactly("stage_passed", "stage_passed", "approved");
        ArticleStage seen = stages.of(id).orElseThrow();
        assertThat(seen.stageName()).isEqualTo("Sign-off");
        assertThat(seen.position()).isEqualTo(3);
        assertThat(seen.stageCount()).isEqualTo(3);
        assertThat(seen.earlier()).extracting(ArticleStage.StageNote::stageName, ArticleStage.StageNote::editorName,
                ArticleStage.StageNote::notes).startsWith(tuple("Copy edit", "Ann Kowalski", "tightened the intro"));
    }

    @ParameterizedTest
    @EnumSource(ClaimStrategyKind.class)
    void aStageEnteredWhenAskedIsSkippedUnlessAskedFor(ClaimStrategyKind strategy) {
        ReviewProcedures p = procedures(strategy);
        long id = Fixtures.articles(dsl, "news", 1, 3, -60).get(0);
        assertThat(decide(p, claimOne(p, "ann", id), Verdict.APPROVE, "", null, List.of()).stage()).isEqualTo("signoff");
        assertThat(p.claim("lee", null, null, null).claimed()).isZero();
        claimOne(p, "bob", id);
    }

    @ParameterizedTest
    @EnumSource(ClaimStrategyKind.class)
    void aSendBackToAnEarlierStageStartsANewPassAtTheFrontOfThatStage(ClaimStrategyKind strategy) {
        ReviewProcedures p = procedures(strategy);
        long id = Fixtures.articles(dsl, "news", 1, 3, -60).get(0);
        decide(p, claimOne(p, "ann", id), Verdict.APPROVE, "", null, List.of());
        Lease signoff = claimOne(p, "dan", id);

        ReviewProcedures.Decided back = decide(p, signoff, Verdict.SEND_BACK, "the second quote needs a source", "copy", List.of());
        assertThat(back.stage()).isEqualTo("copy");
        ArticleRecord a = article(id);
        assertThat(a.getStageId()).isEqualTo("copy");
        assertThat(a.getPass()).isEqualTo(2);
        assertThat(a.getQueueLane()).as("ahead of fresh work").isZero();
        assertThat(a.getAttempts()).as("not a send-back to the writer").isZero();
        assertThat(dsl.fetchValue(OUTCOME_EVENT.OUTCOME, OUTCOME_EVENT.IDEMPOTENCY_KEY.in(
                dsl.select(DECISION.REQUEST_ID).from(DECISION).where(DECISION.ARTICLE_ID.eq(id).and(DECISION.STAGE_ID.eq("signoff"))))))
                .isEqualTo("stage_returned");
        assertThat(claimOne(p, "ann", id).token()).as("Ann copy-edits it again").isGreaterThan(signoff.token());
    }

    @Test
    void aSendBackCannotSkipAheadOrNameAnotherDesksStageAndOnlyLaterWhenAskedStagesCanBeAskedFor() {
        ReviewProcedures p = procedures();
        long id = Fixtures.articles(dsl, "news", 1, 3, -60).get(0);
        Lease copy = claimOne(p, "ann", id);
        assertThatThrownBy(() -> decide(p, copy, Verdict.SEND_BACK, "go on", "signoff", List.of()))
                .hasMessageContaining("earlier stage");
        assertThatThrownBy(() -> decide(p, copy, Verdict.APPROVE, "", "signoff", List.of()))
                .hasMessageContaining("nly a send-back");
        assertThatThrownBy(() -> decide(p, copy, Verdict.APPROVE, "", null, List.of("signoff")))
                .hasMessageContaining("entered when asked");
        assertThat(article(id).getStageId()).isEqualTo("copy");
        assertThat(article(id).getLockedBy()).isEqualTo("ann");
    }

    @ParameterizedTest
    @EnumSource(ClaimStrategyKind.class)
    void aSendBackToTheWriterComesBackAtTheStageThatAsked(ClaimStrategyKind strategy) {
        ReviewProcedures p = procedures(strategy);
        long id = Fixtures.articles(dsl, "news", 1, 3, -60).get(0);
        decide(p, claimOne(p, "ann", id), Verdict.APPROVE, "", null, List.of("legal"));
        ReviewProcedures.Decided back = decide(p, claimOne(p, "lee", id), Verdict.SEND_BACK, "name the source", null, List.of());
        assertThat(back.status()).isEqualTo("awaiting_writer");
        assertThat(article(id).getStageId()).isEqualTo("legal");
        assertThat(article(id).getPass()).isEqualTo(2);

        dsl.update(ARTICLE).set(ARTICLE.STATUS, org.copydesk.db.schema.enums.ArticleStatus.queued).where(ARTICLE.ID.eq(id)).execute();
        assertThat(p.claim("ann", null, null, null).claimed()).isZero();
        claimOne(p, "lee", id);
    }

    @ParameterizedTest
    @EnumSource(ClaimStrategyKind.class)
    void aLapsedLeaseGoesBackToTheFrontOfTheSameStage(ClaimStrategyKind strategy) {
        ReviewProcedures p = procedures(strategy);
        List<Long> ids = Fixtures.articles(dsl, "news", 3, 3, -60);
        decide(p, claimOne(p, "ann", ids.get(0)), Verdict.APPROVE, "", null, List.of("legal"));
        Lease legal = claimOne(p, "lee", ids.get(0));
        Fixtures.letTimePass(dsl, Duration.ofMinutes(11), List.of(ids.get(0)));
        assertThat(p.releaseExpired(10)).extracting(Lease::token).containsExactly(legal.token());
        assertThat(article(ids.get(0)).getStageId()).isEqualTo("legal");
        assertThat(article(ids.get(0)).getQueueLane()).isZero();
        assertThat(p.claim("bob", null, null, null).held()).extracting(HeldArticle::id).doesNotContain(ids.get(0));
        assertThat(claimOne(p, "lee", ids.get(0)).token()).isGreaterThan(legal.token());
    }

    @Test
    void aDeskWithoutStagesIsAsBefore() {
        ReviewProcedures p = procedures();
        long id = Fixtures.articles(dsl, "sport", 1, 3, -60).get(0);
        assertThat(article(id).getStageId()).isNull();
        Lease lease = claimOne(p, "cat", id);
        ReviewProcedures.Decided d = decide(p, lease, Verdict.APPROVE, "", null, List.of());
        assertThat(d.status()).isEqualTo("approved");
        assertThat(d.stage()).isNull();
        assertThat(stages.of(id)).isEmpty();
        assertThatThrownBy(() -> decide(p, claimOne(p, "cat", Fixtures.articles(dsl, "sport", 1, 3, -60).get(0)), Verdict.SEND_BACK,
                "x", "copy", List.of())).hasMessageContaining("no stages");
    }

    @Test
    void aStageThatHoldsArticlesIsRemovedOnlyBySayingWhereTheyGo() {
        ReviewProcedures p = procedures();
        long id = Fixtures.articles(dsl, "news", 1, 3, -60).get(0);
        decide(p, claimOne(p, "ann", id), Verdict.APPROVE, "", null, List.of("legal"));
        assertThatThrownBy(() -> stages.remove(null, "news", "legal", null)).hasMessageContaining("say which stage");
        assertThat(stages.remove(null, "news", "legal", "signoff")).extracting(Stage::id).containsExactly("copy", "signoff");
        assertThat(article(id).getStageId()).isEqualTo("signoff");
        assertThat(stages.order(null, "news", List.of("signoff", "copy"))).extracting(Stage::id, Stage::position)
                .containsExactly(tuple("signoff", 1), tuple("copy", 2));
        stages.remove(null, "news", "copy", "signoff");
        assertThat(stages.remove(null, "news", "signoff", null)).isEmpty();
        assertThat(article(id).getStageId()).as("a desk without stages again").isNull();
        assertThat(procedures().claim("bob", null, null, null).held()).extracting(HeldArticle::id).contains(id);
    }

    /**
     * A decision finds the next stage as the chain stands now: a stage added in the middle, the
     * chain reordered, a stage removed; the positions run 1, 2, 3 … after each change (the decision
     * reads the stage after its own by position).
     */
    @ParameterizedTest
    @EnumSource(ClaimStrategyKind.class)
    void decisionsFollowTheChainAsItWasChangedAndItsPositionsStayUnbroken(ClaimStrategyKind strategy) {
        ReviewProcedures p = procedures(strategy);
        stages.set(null, new ReviewStages.Settings("news", "facts", "Fact check", 2, null, false, false, false));
        assertUnbroken("copy", "facts", "legal", "signoff");
        long first = Fixtures.articles(dsl, "news", 1, 3, -60).get(0);
        assertThat(decide(p, claimOne(p, "ann", first), Verdict.APPROVE, "", null, List.of()).stage()).isEqualTo("facts");
        assertThat(decide(p, claimOne(p, "bob", first), Verdict.APPROVE, "", null, List.of()).stage())
                .as("Legal, entered when asked, is skipped").isEqualTo("signoff");

        stages.order(null, "news", List.of("copy", "signoff", "facts", "legal"));
        assertUnbroken("copy", "signoff", "facts", "legal");
        long second = Fixtures.articles(dsl, "news", 1, 3, -60).get(0);
        assertThat(decide(p, claimOne(p, "ann", second), Verdict.APPROVE, "", null, List.of()).stage()).isEqualTo("signoff");
        assertThat(p.claim("ann", null, null, null).held()).extracting(HeldArticle::id)
                .as("four eyes at Sign-off, now second: Ann copy-edited it").doesNotContain(second);
        assertThat(decide(p, claimOne(p, "dan", second), Verdict.APPROVE, "", null, List.of()).stage()).isEqualTo("facts");
        assertThat(decide(p, claimOne(p, "bob", second), Verdict.APPROVE, "", null, List.of()).status())
                .as("the last stage that is entered decides").isEqualTo("approved");

        stages.remove(null, "news", "signoff", "copy"); // the first article waits there
        assertUnbroken("copy", "facts", "legal");
        long third = Fixtures.articles(dsl, "news", 1, 3, -60).get(0);
        assertThat(decide(p, claimOne(p, "ann", third), Verdict.APPROVE, "", null, List.of()).stage()).isEqualTo("facts");
        assertThat(decide(p, claimOne(p, "bob", third), Verdict.APPROVE, "", null, List.of("legal")).stage()).isEqualTo("legal");
    }

    private void assertUnbroken(String... ids) {
        List<Stage> chain = stages.chain("news");
        assertThat(chain).extracting(Stage::id).containsExactly(ids);
        assertThat(chain).extracting(Stage::position).containsExactlyElementsOf(
                java.util.stream.IntStream.rangeClosed(1, ids.length).boxed().toList());
    }

    @Test
    void theDemoNewsroomHasOneThreeStageDeskAndEveryOtherDeskAsBefore() {
        Fixtures.emptyNewsroom(dsl);
        assertThat(DemoNewsroom.loadIfEmpty(dsl, new Newsroom(dsl, operations))).isTrue();
        assertThat(stages.chain("news")).extracting(Stage::id, Stage::whenAsked, Stage::fourEyes, Stage::takers)
                .containsExactly(tuple("copy", false, false, List.of()), tuple("legal", true, false, List.of("cat")),
                        tuple("signoff", false, true, List.of()));
        assertThat(stages.chain("sport")).isEmpty();
        assertThat(dsl.fetchCount(ARTICLE, ARTICLE.DESK_ID.eq("news").and(ARTICLE.STAGE_ID.eq("copy"))))
                .isEqualTo(dsl.fetchCount(ARTICLE, ARTICLE.DESK_ID.eq("news"))).isPositive();
        assertThat(dsl.fetchCount(ARTICLE, ARTICLE.DESK_ID.ne("news").and(ARTICLE.STAGE_ID.isNotNull()))).isZero();
    }

    @Test
    void anImportMayNameTheStageAnArticleEntersAtOrAskForALaterOne() {
        String rows = Stream.of("{\"external_id\": \"w-1\", \"desk\": \"news\", \"title\": \"First\", \"body\": \"b\"}",
                "{\"external_id\": \"w-2\", \"desk\": \"news\", \"title\": \"Checked\", \"body\": \"b\", \"stage\": \"signoff\"}",
                "{\"external_id\": \"w-3\", \"desk\": \"news\", \"title\": \"Court\", \"body\": \"b\", \"stage\": \"legal\"}",
                "{\"external_id\": \"w-4\", \"desk\": \"news\", \"title\": \"Lost\", \"body\": \"b\", \"stage\": \"nowhere\"}")
                .collect(Collectors.joining("\n", "", "\n"));
        ImportReport report = new ArticleImporter(dsl, Clock.systemUTC()).importStream(
                new ByteArrayInputStream(rows.getBytes(StandardCharsets.UTF_8)), "wire.ndjson", -1, "sue", ImportListener.NONE);
        assertThat(report.imported()).isEqualTo(3);
        assertThat(report.quarantined()).as("a stage its desk does not have: kept aside with the database's words").isEqualTo(1);
        assertThat(dsl.select(ARTICLE.EXTERNAL_ID, ARTICLE.STAGE_ID).from(ARTICLE).orderBy(ARTICLE.EXTERNAL_ID).fetch()
                .map(r -> tuple(r.value1(), r.value2())))
                .containsExactly(tuple("w-1", "copy"), tuple("w-2", "signoff"), tuple("w-3", "copy"));
        long court = dsl.fetchValue(ARTICLE.ID, ARTICLE.EXTERNAL_ID.eq("w-3"));
        assertThat(stages.of(court).orElseThrow().asked()).containsExactly("legal");
        ReviewProcedures p = procedures();
        assertThat(decide(p, claimOne(p, "ann", court), Verdict.APPROVE, "", null, List.of()).stage()).isEqualTo("legal");
    }

    @Test
    void aSupervisorMovesAnUnheldArticleToAnotherStageWithAReasonInItsHistoryAndTheFeed() {
        ReviewProcedures p = procedures();
        long id = Fixtures.articles(dsl, "news", 1, 3, -60).get(0);
        Lease held = claimOne(p, "ann", id);
        assertThatThrownBy(() -> stages.moveTo("sue", id, "signoff", "urgent")).hasMessageContaining("force release");
        assertThatThrownBy(() -> stages.moveTo("sue", id, "copy", "nothing")).hasMessageContaining("reviewing");
        decide(p, held, Verdict.APPROVE, "", null, List.of());
        assertThatThrownBy(() -> stages.moveTo("sue", id, "legal", "")).hasMessageContaining("reason");
        assertThatThrownBy(() -> stages.moveTo("sue", id, "nowhere", "x")).hasMessageContaining("another stage of its desk");

        stages.moveTo("sue", id, "copy", "the headline is wrong");
        assertThat(article(id).getStageId()).isEqualTo("copy");
        assertThat(article(id).getPass()).as("back: a new pass").isEqualTo(2);
        assertThat(history(id).get(history(id).size() - 1)).extracting(LeaseEventRecord::getAction, LeaseEventRecord::getActor,
                LeaseEventRecord::getDetail).containsExactly("stage", "sue", "moved from signoff to copy: the headline is wrong");
        assertThat(dsl.select(OUTCOME_EVENT.OUTCOME, OUTCOME_EVENT.STAGE_ID, OUTCOME_EVENT.TO_STAGE_ID).from(OUTCOME_EVENT)
                .where(OUTCOME_EVENT.ARTICLE_ID.eq(id)).orderBy(OUTCOME_EVENT.ID).fetch()
                .map(r -> tuple(r.value1(), r.value2(), r.value3())))
                .containsExactly(tuple("stage_passed", "copy", "signoff"), tuple("stage_moved", "signoff", "copy"));
    }
}
