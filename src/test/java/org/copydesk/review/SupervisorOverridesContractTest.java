package org.copydesk.review;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.copydesk.db.schema.Tables.ARTICLE;

import java.util.List;
import java.util.UUID;
import org.copydesk.lease.ClaimStrategyKind;
import org.copydesk.lease.Lease;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.TestDatabase;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The supervisor's overrides as the claim ({@code claim_articles}) enforces them, for each of its
 * strategies: an article force-released or reassigned away is kept from the editor who lost it
 * until a supervisor lets them have it again or someone decides it; a held article is passed over
 * by every claim until the hold is released; an article moved to the front is the next claim.
 * The keeping and the hold are checked where each strategy takes a row (the same compare-and-set),
 * not only where it reads candidates.
 */
class SupervisorOverridesContractTest extends OperationsFixture {

    private final QueueOverrides overrides;

    SupervisorOverridesContractTest(TestDatabase db) {
        super(db);
        this.overrides = new QueueOverrides(operations, null); // the schema's owner acts for sue
    }

    private Lease claimOne(ClaimStrategyKind strategy, String editor) {
        return procedures(strategy).claim(editor, List.of("news"), 1, null).held().get(0).lease();
    }

    private List<Long> claim(ClaimStrategyKind strategy, String editor) {
        return ids(procedures(strategy).claim(editor, List.of("news"), null, null));
    }

    private void giveBack(String editor) {
        for (HeldArticle h : procedures().claim(editor, List.of("news"), 0, null).held()) {
            procedures().release(editor, h.lease(), "given back");
        }
        dsl.update(ARTICLE).set(ARTICLE.PASSED_BY, DSL.val((String) null)).execute(); // their own release passes over for 10 min
    }

    @ParameterizedTest
    @EnumSource(ClaimStrategyKind.class)
    void aForceReleasedArticleIsKeptFromItsHolderUntilTheSupervisorLetsThemHaveItAgain(ClaimStrategyKind strategy) {
        List<Long> ids = Fixtures.articles(dsl, "news", 3, 3, -60);
        long taken = id(claimOne(strategy, "ann"));
        procedures().forceRelease("sue", taken, "Culture desk needs it for print");
        assertThat(article(taken).getKeptFrom()).isEqualTo("ann");

        assertThat(claim(strategy, "ann")).as("Ann's claim passes it over").hasSize(2).doesNotContain(taken);
        giveBack("ann");
        assertThat(claim(strategy, "bob")).as("others' claims take it as usual").contains(taken);
        giveBack("bob");

        overrides.letEditorAgain(taken, "sue", "Print deadline moved");
        assertThat(article(taken).getKeptFrom()).isNull();
        assertThat(claim(strategy, "ann")).containsExactlyInAnyOrderElementsOf(ids);
        assertThat(history(taken)).extracting(r -> r.getAction()).contains("force_release", "let_again");
    }

    @ParameterizedTest
    @EnumSource(ClaimStrategyKind.class)
    void anArticleReassignedAwayIsKeptFromItsFormerHolderAndADecisionByAnotherEndsTheKeeping(ClaimStrategyKind strategy) {
        Fixtures.articles(dsl, "news", 2, 3, -60);
        long taken = id(claimOne(strategy, "ann"));
        Lease bobs = procedures().reassign("sue", taken, "bob", false, false, "Bob knows the case");
        assertThat(article(taken).getKeptFrom()).isEqualTo("ann");

        procedures().release("bob", bobs, "given back");
        dsl.update(ARTICLE).set(ARTICLE.PASSED_BY, DSL.val((String) null)).execute();
        assertThat(claim(strategy, "ann")).doesNotContain(taken);
        giveBack("ann");

        Lease again = procedures().reassign("sue", taken, "bob", false, false, null);
        assertThat(procedures().decide("bob", again, UUID.randomUUID(), Verdict.SEND_BACK, "Check the figures").outcome())
                .isEqualTo(ReviewProcedures.DecideOutcome.RECORDED);
        assertThat(article(taken).getKeptFrom()).as("decided by someone: kept from nobody").isNull();
    }

    @ParameterizedTest
    @EnumSource(ClaimStrategyKind.class)
    void aHeldArticleIsPassedOverByEveryClaimUntilTheHoldIsReleased(ClaimStrategyKind strategy) {
        List<Long> ids = Fixtures.articles(dsl, "news", 3, 3, -60);
        overrides.hold(ids.get(0), "sue", "Legal reads it first");
        assertThat(article(ids.get(0)).getHeldBy()).isEqualTo("sue");

        assertThat(claim(strategy, "ann")).containsExactlyInAnyOrder(ids.get(1), ids.get(2));
        assertThat(claim(strategy, "bob")).as("for everyone").isEmpty();

        overrides.releaseHold(ids.get(0), "sue", null);
        assertThat(claim(strategy, "bob")).containsExactly(ids.get(0));
    }

    @ParameterizedTest
    @EnumSource(ClaimStrategyKind.class)
    void anArticleMovedToTheFrontIsTheNextClaim(ClaimStrategyKind strategy) {
        // enough waiting for BLOCKING's and OPTIMISTIC's read from a random place to pass over it, if it could
        List<Long> ids = Fixtures.articles(dsl, "news", 80, 3, -60);
        List<Long> urgent = Fixtures.articles(dsl, "news", 1, 1, -30);
        overrides.moveToFront(ids.get(3), "sue", "Print deadline");
        overrides.moveToFront(ids.get(5), "sue", "Even more urgent");

        assertThat(article(ids.get(3)).getPriority()).as("as urgent as the most urgent waiting").isEqualTo(1);
        assertThat(ids(procedures(strategy).claim("ann", List.of("news"), 3, null)))
                .as("the last moved first, then the one before, then the rest in claim order")
                .containsExactly(ids.get(5), ids.get(3), urgent.get(0));
    }

    @ParameterizedTest
    @EnumSource(ClaimStrategyKind.class)
    void articlesMovedToTheFrontAreTakenInOrderOneClaimAfterAnother(ClaimStrategyKind strategy) {
        List<Long> ids = Fixtures.articles(dsl, "news", 60, 3, -60);
        List<Long> moved = new java.util.ArrayList<>();
        for (int i = 10; i < 20; i++) { // each moved ahead of the one before
            overrides.moveToFront(ids.get(i), "sue", null);
            moved.add(0, ids.get(i));
        }
        for (long expected : moved) {
            HeldArticle taken = procedures(strategy).claim("ann", List.of("news"), 1, null).held().get(0);
            assertThat(taken.id()).isEqualTo(expected);
            procedures().decide("ann", taken.lease(), UUID.randomUUID(), Verdict.APPROVE, "");
        }
    }

    @Test
    void theOverridesRefuseWhatDoesNotFitInPlainWords() {
        List<Long> ids = Fixtures.articles(dsl, "news", 2, 3, -60);
        List<Long> later = Fixtures.articles(dsl, "news", 1, 3, 3600);
        long held = id(claimOne(ClaimStrategyKind.SKIP_LOCKED, "ann"));
        long waiting = ids.stream().filter(i -> i != held).findFirst().orElseThrow();

        assertThatThrownBy(() -> overrides.hold(held, "sue", "why not")).isInstanceOf(OperationRefusedException.class)
                .hasMessageContaining("reviewing this article now");
        assertThatThrownBy(() -> overrides.hold(waiting, "sue", " ")).isInstanceOf(OperationRefusedException.class)
                .hasMessageContaining("reason");
        assertThatThrownBy(() -> overrides.releaseHold(waiting, "sue", null)).isInstanceOf(OperationRefusedException.class)
                .hasMessageContaining("not on hold");
        assertThatThrownBy(() -> overrides.letEditorAgain(waiting, "sue", null)).isInstanceOf(OperationRefusedException.class)
                .hasMessageContaining("kept from nobody");
        assertThatThrownBy(() -> overrides.moveToFront(later.get(0), "sue", null)).isInstanceOf(OperationRefusedException.class)
                .hasMessageContaining("embargo");
        assertThatThrownBy(() -> procedures().reassign("sue", later.get(0), "bob", false, false, null))
                .isInstanceOf(OperationRefusedException.class).hasMessageContaining("embargo");
        assertThat(article(waiting).getHeldAt()).isNull(); // (an editor's own account: SupervisorOverridesSecurityTest)
    }
}
