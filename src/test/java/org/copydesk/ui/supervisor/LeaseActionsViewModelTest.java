package org.copydesk.ui.supervisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.LEASE_EVENT;
import static org.copydesk.db.schema.Tables.REVIEW_DRAFT;

import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import org.copydesk.review.Editor;
import org.copydesk.review.HeldArticle;
import org.copydesk.review.ReviewSession;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.ManualTicker;
import org.copydesk.testing.TestDatabase;
import org.copydesk.ui.common.Notice;
import org.copydesk.ui.common.TaskExecutor;
import org.copydesk.ui.supervisor.LeaseBatch.Result;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Supervisors act on several leases at once, each through the database's operation,
 * and are told per lease what happened; force release and reassign ask first, naming holders and
 * titles. View model with a same-thread executor and the real database.
 */
@ExtendWith(DatabaseExtension.class)
class LeaseActionsViewModelTest {

    private final DSLContext dsl;
    private final ReviewSession services;
    private final ManualTicker ticker = new ManualTicker();
    private DashboardViewModel dashboard;
    private HoldersViewModel holders;
    private LeaseActionsViewModel model;

    LeaseActionsViewModelTest(TestDatabase db) {
        this.dsl = db.dsl();
        this.services = new ReviewSession(db.database(), ReviewSession.Options.defaults());
    }

    @BeforeEach
    void newsroom() {
        Editor sue = NewsroomCast.on(services, dsl).desks("news", "sport")
                .ann("news", "sport").bob("news").dan("news").sue("news", "sport");
        Fixtures.articles(dsl, "news", 5, 3, -60);
        services.queue().claim("ann"); // Article 0, 1, 2
        services.queue().claim("bob"); // Article 3, 4
        dashboard = new DashboardViewModel(services, TaskExecutor.sameThread(), ticker, sue, DashboardViewModel.Settings.defaults(),
                ZoneId.of("UTC"));
        holders = dashboard.holders();
        model = dashboard.leaseActions();
        dashboard.start();
    }

    @AfterEach
    void close() {
        dashboard.close();
    }

    private List<HolderRow> rows(String... titles) {
        return List.of(titles).stream().map(t -> holders.rows().stream().filter(r -> r.title().equals(t)).findFirst().orElseThrow())
                .toList();
    }

    private HeldArticle held(String editor, String title) {
        return services.queue().held(editor).stream().filter(h -> h.title().equals(title)).findFirst().orElseThrow();
    }

    private String lockedBy(String title) {
        return dsl.fetchValue(ARTICLE.LOCKED_BY, ARTICLE.TITLE.eq(title));
    }

    @Test
    void theListOfPeopleFollowsChangesToEditorsAndDesksWithoutARefresh() {
        services.newsroom().addEditor("cat", "Cat Diaz", org.copydesk.review.Role.EDITOR, 3, List.of("sport"));
        ticker.advance(Duration.ofSeconds(2));
        holders.select(rows("Article 0"));
        assertThat(model.reassignCandidates()).extracting(Editor::id).as("last: without the desk").endsWith("cat");
        assertThat(model.candidateLabel(model.reassignCandidates().get(3))).isEqualTo("Cat Diaz (cat) \u2014 signed out, 0 of 3 \u00b7 not on News");
        assertThat(dashboard.audit().people()).extracting(Editor::id).contains("cat");

        services.newsroom().setDesks("cat", List.of("sport", "news")); // an admin, elsewhere
        ticker.advance(Duration.ofSeconds(2));

        assertThat(model.reassignCandidates()).extracting(Editor::id).containsExactly("bob", "cat", "dan", "sue");
        assertThat(model.candidateLabel(model.reassignCandidates().get(1))).isEqualTo("Cat Diaz (cat) \u2014 signed out, 0 of 3");
    }

    @Test
    void reassigningToSomeoneWithoutTheDeskAsksAndHandsTheNotesOverAndKeepsTheArticleFromItsHolder() {
        services.newsroom().addEditor("cat", "Cat Diaz", org.copydesk.review.Role.EDITOR, 3, List.of("sport"));
        long article0 = held("ann", "Article 0").id();
        dsl.insertInto(REVIEW_DRAFT, REVIEW_DRAFT.ARTICLE_ID, REVIEW_DRAFT.EDITOR_ID, REVIEW_DRAFT.NOTES)
                .values(article0, "ann", "Headline overstates the cuts").execute();
        ticker.advance(Duration.ofSeconds(2));
        holders.select(rows("Article 0"));
        assertThat(model.reassignCandidates()).extracting(Editor::id).as("the desk's people first, then anyone who may hold articles")
                .containsExactly("bob", "dan", "sue", "cat");
        Editor cat = model.reassignCandidates().get(3);
        assertThat(model.candidateLabel(cat)).isEqualTo("Cat Diaz (cat) \u2014 signed out, 0 of 3 \u00b7 not on News");

        model.reassignToProperty().set(cat);
        model.reasonProperty().set("Cat knows the council");
        model.reassignSelected();
        assertThat(model.questionProperty().get()).isEqualTo("Give \u201cArticle 0\u201d to Cat Diaz? Ann Kowalski holds it now and "
                + "loses it; Ann Kowalski's notes go with it. Cat Diaz does not work on News; this gives them the article, not the desk.");
        assertThat(model.answerProperty().get()).isEqualTo("Give it anyway");
        model.confirm();

        assertThat(lockedBy("Article 0")).isEqualTo("cat");
        assertThat(dsl.fetchValue(ARTICLE.KEPT_FROM, ARTICLE.ID.eq(article0))).isEqualTo("ann");
        assertThat(dsl.fetchValue(REVIEW_DRAFT.NOTES, REVIEW_DRAFT.ARTICLE_ID.eq(article0).and(REVIEW_DRAFT.EDITOR_ID.eq("cat"))))
                .matches("Notes from Ann Kowalski, \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC:\nHeadline overstates the cuts");
        assertThat(dsl.fetchValue(REVIEW_DRAFT.NOTES, REVIEW_DRAFT.ARTICLE_ID.eq(article0).and(REVIEW_DRAFT.EDITOR_ID.eq("ann"))))
                .as("Ann's own stay hers").isEqualTo("Headline overstates the cuts");
        assertThat(dsl.select(LEASE_EVENT.ACTOR, LEASE_EVENT.OLD_OWNER, LEASE_EVENT.NEW_OWNER, LEASE_EVENT.DETAIL).from(LEASE_EVENT)
                .where(LEASE_EVENT.ACTION.eq("notes_handed_over")).fetchOne().intoList())
                .containsExactly("sue", "ann", "cat", "Headline overstates the cuts");

        services.queue().release(held("cat", "Article 0"));
        services.queue().held("ann").forEach(h -> services.queue().release(h));
        dsl.update(ARTICLE).set(ARTICLE.PASSED_BY, (String) null).where(ARTICLE.ID.isNotNull()).execute(); // their own releases
        assertThat(services.queue().claim("ann").articles()).extracting(HeldArticle::title).as("kept from Ann")
                .doesNotContain("Article 0");
    }

    @Test
    void forceReleasingSeveralAsksWithCountTitlesAndHoldersThenSaysWhatHappenedToEach() {
        holders.select(rows("Article 0", "Article 3", "Article 4"));
        model.reasonProperty().set("Legal must read them");
        services.queue().release(held("bob", "Article 4")); // Bob gave one back meanwhile

        model.forceReleaseSelected();
        assertThat(model.questionProperty().get()).isEqualTo("Take 3 articles back from their holders? "
                + "\u201cArticle 0\u201d from Ann Kowalski, \u201cArticle 3\u201d from Bob Okafor, \u201cArticle 4\u201d from Bob Okafor.");
        assertThat(model.answerProperty().get()).isEqualTo("Take 3 back");
        assertThat(lockedBy("Article 0")).as("nothing happens before the answer").isEqualTo("ann");

        model.confirm();

        assertThat(model.outcomes()).extracting(LeaseBatch.Outcome::result).containsExactly(Result.DONE, Result.DONE, Result.LOST);
        assertThat(model.outcomes()).extracting(LeaseBatch.Outcome::words).containsExactly(
                "Took \u201cArticle 0\u201d back from Ann Kowalski.",
                "Took \u201cArticle 3\u201d back from Bob Okafor.",
                "\u201cArticle 4\u201d was no longer held by Bob Okafor: given back, finished or run out. Nothing was done.");
        assertThat(dashboard.notices().get(0).text()).isEqualTo("Took 2 of 3 articles back; 1 had ended or changed hands.");
        assertThat(dashboard.notices().get(0).kind()).isEqualTo(Notice.Kind.WARNING);
        assertThat(dsl.fetchCount(LEASE_EVENT, LEASE_EVENT.ACTION.eq("force_release"))).as("one call per lease still held").isEqualTo(2);
        assertThat(lockedBy("Article 0")).isNull();
        assertThat(lockedBy("Article 3")).isNull();
        assertThat(holders.rows()).extracting(HolderRow::title).containsExactly("Article 1", "Article 2");
        assertThat(model.reasonProperty().get()).isEmpty();
    }

    @Test
    void aLeaseThatChangedHandsMeanwhileIsLeftAloneNotTakenFromItsNewHolder() {
        holders.select(rows("Article 1"));
        model.reasonProperty().set("Wrong desk");
        services.supervision().reassign(held("ann", "Article 1").id(), "dan", "sue", false, "another supervisor");

        model.forceReleaseSelected();
        model.confirm();

        assertThat(lockedBy("Article 1")).isEqualTo("dan");
        assertThat(dashboard.notices().get(0).kind()).isEqualTo(Notice.Kind.WARNING);
        assertThat(dashboard.notices().get(0).text()).isEqualTo("\u201cArticle 1\u201d is held by Dan Ito now, not Ann Kowalski; left alone.");
    }

    @Test
    void cancellingTheQuestionChangesNothingAndANewSelectionDropsIt() {
        holders.select(rows("Article 0"));
        model.reasonProperty().set("Legal");
        model.forceReleaseSelected();
        assertThat(model.questionProperty().get()).isEqualTo("Take \u201cArticle 0\u201d back from Ann Kowalski?");

        model.cancelQuestion();
        assertThat(model.questionProperty().get()).isEmpty();
        model.confirm(); // nothing is pending any more
        assertThat(lockedBy("Article 0")).isEqualTo("ann");

        model.forceReleaseSelected();
        holders.select(rows("Article 1"));
        assertThat(model.questionProperty().get()).as("the question named another lease").isEmpty();
        model.confirm();
        assertThat(lockedBy("Article 0")).isEqualTo("ann");
        assertThat(lockedBy("Article 1")).isEqualTo("ann");
    }

    @Test
    void reassigningSeveralGoesOverCapacityOnlyWhenConfirmedForTheOnesThatWould() {
        holders.select(rows("Article 0", "Article 1"));
        assertThat(model.reassignCandidates()).extracting(Editor::id).containsExactly("bob", "dan", "sue");
        model.reassignToProperty().set(model.reassignCandidates().get(1)); // Dan: capacity 1, holds none
        model.reassignSelected();
        assertThat(model.questionProperty().get()).isEqualTo("Give 2 articles to Dan Ito? "
                + "\u201cArticle 0\u201d from Ann Kowalski, \u201cArticle 1\u201d from Ann Kowalski.");

        model.confirm();

        assertThat(model.outcomes()).extracting(LeaseBatch.Outcome::result).containsExactly(Result.DONE, Result.OVER_CAPACITY);
        assertThat(lockedBy("Article 0")).isEqualTo("dan");
        assertThat(lockedBy("Article 1")).isEqualTo("ann");
        assertThat(model.capacityWarningProperty().get()).isEqualTo(
                "Dan Ito would go over capacity with 1 of these articles. Reassign it anyway?");

        model.confirmOverCapacity();

        assertThat(lockedBy("Article 1")).isEqualTo("dan");
        assertThat(dsl.fetchCount(LEASE_EVENT, LEASE_EVENT.ACTION.eq("reassign"))).isEqualTo(2);
    }

    @Test
    void extendingSeveralGivesEachMoreTimeWithOneCallEach() {
        holders.select(rows("Article 0", "Article 3"));

        model.extendSelected(Duration.ofMinutes(15));

        assertThat(model.outcomes()).extracting(LeaseBatch.Outcome::result).containsExactly(Result.DONE, Result.DONE);
        assertThat(model.outcomes().get(0).words()).startsWith("\u201cArticle 0\u201d now runs until ");
        assertThat(dashboard.notices().get(0).text()).isEqualTo("Gave 2 of 2 articles more time.");
        assertThat(dsl.fetchCount(LEASE_EVENT, LEASE_EVENT.ACTION.eq("extend").and(LEASE_EVENT.ACTOR.eq("sue")))).isEqualTo(2);
    }

    @Test
    void theEditorsOfEverySelectedDeskComeFirstAndTheReasonIsAskedOfAllHolders() {
        Fixtures.articles(dsl, "sport", 1, 3, -60);
        services.supervision().reassign(dsl.fetchValue(ARTICLE.ID, ARTICLE.DESK_ID.eq("sport")), "ann", "sue", true, null);
        holders.reloadAll();
        HolderRow sport = holders.rows().stream().filter(r -> r.desk().equals("sport")).findFirst().orElseThrow();
        holders.select(List.of(rows("Article 3").get(0), sport));
        assertThat(model.reassignCandidates()).as("Ann and Bob are signed in (they claimed), both full; then the signed out: "
                + "Sue works on both desks, Dan on news only").extracting(Editor::id).containsExactly("ann", "bob", "sue", "dan");
        assertThat(model.candidateLabel(model.reassignCandidates().get(1))).isEqualTo("Bob Okafor (bob) \u2014 signed in, full, 2 of 2 \u00b7 not on Sport");

        model.forceReleaseSelected();
        assertThat(model.errorProperty().get()).isEqualTo("Give a reason: Bob Okafor and Ann Kowalski will see it.");
        assertThat(model.questionProperty().get()).isEmpty();
    }

    @Test
    void oldNoticesLeaveWarningsAfterALongerWhile() {
        holders.select(rows("Article 4"));
        services.queue().release(held("bob", "Article 4"));
        model.extendSelected(Duration.ofMinutes(5)); // no longer held: a warning
        holders.select(rows("Article 0"));
        model.extendSelected(Duration.ofMinutes(5)); // done: a success
        assertThat(dashboard.notices()).extracting(Notice::kind).containsExactly(Notice.Kind.SUCCESS, Notice.Kind.WARNING);

        ticker.advance(Duration.ofSeconds(9));
        assertThat(dashboard.notices()).extracting(Notice::kind).containsExactly(Notice.Kind.WARNING);

        ticker.advance(Duration.ofSeconds(60));
        assertThat(dashboard.notices()).as("warnings leave too, later").isEmpty();
    }

    @Test
    void aRefusalStaysBesideTheButtonsWhileTheSameLeaseIsSelectedEvenAsItRenews() {
        holders.select(rows("Article 0"));

        model.extendSelected(Duration.ofDays(2));

        assertThat(model.errorProperty().get()).isEqualTo("\u201cArticle 0\u201d: Give between one second and one day more.");
        assertThat(dashboard.notices()).isEmpty();
        services.queue().renew("ann", List.of(held("ann", "Article 0")));
        ticker.advance(Duration.ofSeconds(2));
        assertThat(holders.selectedProperty().get().renewals()).isEqualTo(1);
        assertThat(model.errorProperty().get()).as("the same lease, renewed").isNotEmpty();

        holders.select(rows("Article 1"));
        assertThat(model.errorProperty().get()).isEmpty();
    }
}
