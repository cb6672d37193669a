package org.copydesk.review;

import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.DECISION;
import static org.copydesk.db.schema.Tables.EDITOR;
import static org.copydesk.db.schema.Tables.REVIEW_DRAFT;

import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.copydesk.lease.ClaimStrategyKind;
import org.copydesk.testing.CallCost;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.TestDatabase;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The desks and stages an editor takes work from (docs/workflow.md, "What an editor takes work
 * from"): the choice is kept by the database and read by every claim, under every strategy; it
 * narrows and never widens (an editor's own raw session cannot choose work that is not theirs, and
 * an entry written past the operation is checked again by the claim); a choice an admin's change
 * made stale is ignored. News is Copy edit → Legal (Lee only) → Sign-off; Sport has no stages; Ann
 * works News and Sport, Bob works Arts.
 */
@ExtendWith(DatabaseExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class WorkChoiceTest {

    private static final Logger log = LoggerFactory.getLogger(WorkChoiceTest.class);
    private static final String ANN = "wch_ann";
    private static final String ANN_SECRET = "ann-choice-secret-1";
    private static final String BOB = "wch_bob";
    private static final String LEE = "wch_lee";

    private final DSLContext root;
    private final Attacks attacks;
    private final Newsroom newsroom;
    private final WorkChoices choices;

    WorkChoiceTest(TestDatabase db) {
        this.root = db.dsl();
        this.attacks = new Attacks(db);
        this.newsroom = new Newsroom(root);
        this.choices = WorkChoices.over(root);
    }

    @BeforeAll
    void accounts() {
        newsroom.addDesk("news", "News", Duration.ofMinutes(30));
        newsroom.addDesk("sport", "Sport", Duration.ofMinutes(30));
        newsroom.addDesk("arts", "Arts", Duration.ofMinutes(30));
        newsroom.addEditor(ANN, "Ann", Role.EDITOR, 20, List.of("news", "sport"));
        newsroom.addEditor(BOB, "Bob", Role.EDITOR, 20, List.of("arts"));
        newsroom.addEditor(LEE, "Lee", Role.EDITOR, 20, List.of());
        new AccountAdministration(root).createAccount(ANN, ANN_SECRET.toCharArray());
        StageChainContractTest.threeStageNewsDesk(ReviewStages.over(root), LEE);
    }

    @AfterAll
    void close() {
        attacks.log(log, "an editor choosing the work they take");
        new AccountAdministration(root).dropAccount(ANN);
    }

    @BeforeEach
    void emptyDesks() {
        root.deleteFrom(REVIEW_DRAFT).execute();
        root.deleteFrom(DECISION).execute();
        Fixtures.clear(root);
        newsroom.setDesks(ANN, List.of("news", "sport"));
        root.update(EDITOR).setNull(EDITOR.WORK_CHOICE).execute();
        Fixtures.articles(root, "news", 3, 3, -60); // at Copy edit
        Fixtures.articles(root, "sport", 3, 3, -60);
        Fixtures.articles(root, "arts", 3, 3, -60);
        List<Long> legal = Fixtures.articles(root, "news", 3, 3, -60);
        root.update(ARTICLE).set(ARTICLE.STAGE_ID, "legal").where(ARTICLE.ID.in(legal)).execute();
    }

    private String choiceOf(String editor) {
        return root.fetchValue(EDITOR.WORK_CHOICE, EDITOR.ID.eq(editor));
    }

    /** Where the editor's articles are: "news/copy", "sport", … */
    private Set<String> heldBy(String editor) {
        return root.select(ARTICLE.DESK_ID, ARTICLE.STAGE_ID).from(ARTICLE).where(ARTICLE.LOCKED_BY.eq(editor))
                .fetchSet(r -> r.value2() == null ? r.value1() : r.value1() + "/" + r.value2());
    }

    private Set<String> claimAll(String editor, ClaimStrategyKind strategy) {
        new ReviewProcedures(DatabaseOperations.withDefaultRetries(root), strategy).claim(editor, null, null, null);
        return heldBy(editor);
    }

    @Test
    void anEditorCannotChooseWorkThatIsNotHersFromHerOwnSession() {
        // control: her own desk and stage, from her own session, are kept
        assertThat(attacks.runs(ANN, ANN_SECRET, "CALL set_work_choice(NULL, 'sport, news/copy')")).isEqualTo("sport,news/copy");
        assertThat(choiceOf(ANN)).isEqualTo("sport,news/copy");
        for (String other : List.of("arts", "news/legal", "sport,arts", "nowhere/copy", "news/nowhere")) {
            attacks.refused("choose '" + other + "'", () -> attacks.runs(ANN, ANN_SECRET, "CALL set_work_choice(NULL, '" + other + "')"));
            assertThat(choiceOf(ANN)).as("after choosing " + other).isEqualTo("sport,news/copy");
        }
        attacks.refused("choose for Bob", () -> attacks.runs(ANN, ANN_SECRET, "CALL set_work_choice('" + BOB + "', 'arts')"));
        attacks.refused("write her choice in the table",
                () -> attacks.runs(ANN, ANN_SECRET, "UPDATE editor SET work_choice = 'arts' WHERE id = '" + ANN + "'"));
        assertThat(choiceOf(ANN)).isEqualTo("sport,news/copy");
        assertThat(choiceOf(BOB)).isNull();
    }

    @ParameterizedTest
    @EnumSource(ClaimStrategyKind.class)
    void aChoiceWrittenPastTheOperationStillNeverWidensTheClaim(ClaimStrategyKind strategy) {
        // the defence behind set_work_choice: the owner writes what the operation refuses
        root.update(EDITOR).set(EDITOR.WORK_CHOICE, "arts,news/legal").where(EDITOR.ID.eq(ANN)).execute();
        attacks.runs(ANN, ANN_SECRET, "CALL claim_articles(NULL, NULL, NULL, NULL, '" + strategy + "')");
        assertThat(heldBy(ANN)).as("neither Arts nor Legal: the claim checks every entry again, and none is left")
                .containsExactlyInAnyOrder("news/copy", "sport");
        attacks.noEffect("claim with a choice of Arts and Legal written by the owner (" + strategy + ")",
                "her own work, as with no choice");
        // control: Bob, on Arts, is handed its work
        assertThat(claimAll(BOB, strategy)).containsExactly("arts");
    }

    @ParameterizedTest
    @EnumSource(ClaimStrategyKind.class)
    void claimsUnderEveryStrategyTakeOnlyFromTheChoice(ClaimStrategyKind strategy) {
        // control: no choice, everything she may work
        assertThat(claimAll(ANN, strategy)).containsExactlyInAnyOrder("news/copy", "sport");
        Fixtures.clear(root);
        Fixtures.articles(root, "news", 6, 3, -60);
        Fixtures.articles(root, "sport", 6, 3, -60);

        choices.choose(ANN, List.of("news/copy"));
        assertThat(claimAll(ANN, strategy)).containsExactly("news/copy");
        assertThat(root.fetchCount(ARTICLE, ARTICLE.LOCKED_BY.eq(ANN))).isEqualTo(6);

        choices.choose(ANN, List.of("sport"));
        assertThat(claimAll(ANN, strategy)).as("News held from before is kept; new work from Sport only")
                .containsExactlyInAnyOrder("news/copy", "sport");
        assertThat(root.fetchCount(ARTICLE, ARTICLE.LOCKED_BY.eq(ANN).and(ARTICLE.DESK_ID.eq("sport")))).isEqualTo(6);
    }

    @ParameterizedTest
    @EnumSource(ClaimStrategyKind.class)
    void aChoiceAnAdminMadeStaleIsIgnored(ClaimStrategyKind strategy) {
        choices.choose(ANN, List.of("sport", "news/copy"));
        newsroom.setDesks(ANN, List.of("news"));
        assertThat(claimAll(ANN, strategy)).as("the stale entry passed over, the rest kept").containsExactly("news/copy");

        Fixtures.clear(root);
        Fixtures.articles(root, "news", 3, 3, -60);
        Fixtures.articles(root, "arts", 3, 3, -60);
        newsroom.setDesks(ANN, List.of("news", "sport"));
        choices.choose(ANN, List.of("sport"));
        newsroom.setDesks(ANN, List.of("news", "arts"));
        assertThat(claimAll(ANN, strategy)).as("nothing of the choice left: everything she may work")
                .containsExactlyInAnyOrder("news/copy", "arts");
    }

    @Test
    void theOptionsAreWhatSheMayWorkTickedAsChosen() {
        assertThat(choices.options(ANN)).extracting(WorkChoices.Option::entry)
                .containsExactly("news/copy", "news/signoff", "sport");
        assertThat(choices.options(ANN)).noneMatch(WorkChoices.Option::chosen);
        assertThat(choices.options(LEE)).extracting(WorkChoices.Option::entry).containsExactly("news/legal");
        choices.choose(ANN, WorkChoices.entriesFor(choices.options(ANN), Set.of("news/copy", "news/signoff")));
        assertThat(choiceOf(ANN)).as("a desk whose every stage is ticked is named whole").isEqualTo("news");
        assertThat(choices.options(ANN)).filteredOn(WorkChoices.Option::chosen).extracting(WorkChoices.Option::entry)
                .containsExactly("news/copy", "news/signoff");
        choices.choose(ANN, List.of());
        assertThat(choiceOf(ANN)).isNull();
    }

    /**
     * Statements and rows per claim of 5, with and without a choice, beside the same narrowing asked
     * by the claim's own desk list (reported, docs/workflow.md). Each figure is measured twice, after
     * the table's statistics are fresh; a choice costs no statement more.
     */
    @Test
    void whatAChoiceCostsAClaim() throws Exception {
        Fixtures.clear(root);
        Fixtures.articles(root, "news", 600, 3, -60);
        Fixtures.articles(root, "sport", 600, 3, -60);
        root.execute("analyze table article");
        String release = "UPDATE article SET locked_by = NULL, expires_at = NULL, passed_by = NULL WHERE locked_by = '" + ANN + "'";
        String claim = "CALL claim_articles('" + ANN + "', %s, 5, NULL, 'SKIP_LOCKED')";
        try (Connection c = root.configuration().connectionProvider().acquire(); Statement s = c.createStatement()) {
            for (int round = 1; round <= 2; round++) {
                choices.choose(ANN, List.of());
                CallCost none = CallCost.of(s, release, String.format(claim, "NULL"), 20);
                CallCost listSport = CallCost.of(s, release, String.format(claim, "'sport'"), 20);
                CallCost listCopy = CallCost.of(s, release, String.format(claim, "'news/copy'"), 20);
                choices.choose(ANN, List.of("sport"));
                CallCost sport = CallCost.of(s, release, String.format(claim, "NULL"), 20);
                choices.choose(ANN, List.of("news/copy"));
                CallCost copy = CallCost.of(s, release, String.format(claim, "NULL"), 20);
                log.info("A claim of 5, round {}:\n  no choice: {}\n  desk list 'sport': {}\n  desk list 'news/copy': {}"
                        + "\n  choice 'sport': {}\n  choice 'news/copy': {}", round, none, listSport, listCopy, sport, copy);
                assertThat(sport.statements()).isLessThanOrEqualTo(listSport.statements());
                assertThat(copy.statements()).isLessThanOrEqualTo(listCopy.statements());
            }
        }
    }
}
