package org.copydesk.ui.supervisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.LEASE_EVENT;

import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import org.copydesk.review.DeskQueue;
import org.copydesk.review.DeskQueue.Item;
import org.copydesk.review.Editor;
import org.copydesk.review.HeldArticle;
import org.copydesk.review.ReviewSession;
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

/**
 * The Queue tab and the supervisor's overrides: a desk's queue in claim order, giving a waiting
 * article to a named editor (asked first, again over capacity, and outside their desk), moving one
 * to the front, holding one, and an article kept from the editor who lost it until the supervisor
 * lets them have it again. View models with a same-thread executor on the real database.
 */
@ExtendWith(DatabaseExtension.class)
class QueueViewModelTest {

    private final DSLContext dsl;
    private final ReviewSession services;
    private final ManualTicker ticker = new ManualTicker();
    private DashboardViewModel dashboard;
    private QueueViewModel queue;
    private QueueActionsViewModel actions;
    private List<Long> news;

    QueueViewModelTest(TestDatabase db) {
        this.dsl = db.dsl();
        this.services = new ReviewSession(db.database(), ReviewSession.Options.defaults());
    }

    @BeforeEach
    void newsroom() {
        Editor sue = NewsroomCast.on(services, dsl).desks("news", "sport").ann("news", "sport").bob("sport").dan("news")
                .sue("news", "sport");
        news = Fixtures.articles(dsl, "news", 4, 3, -600); // Article 0 … 3, oldest first
        Fixtures.articles(dsl, "news", 1, 2, -60); // more urgent: first in claim order
        Fixtures.articles(dsl, "news", 1, 3, 3600); // embargoed for an hour
        dashboard = new DashboardViewModel(services, TaskExecutor.sameThread(), ticker, sue, DashboardViewModel.Settings.defaults(),
                ZoneId.of("UTC"));
        queue = dashboard.queue();
        actions = dashboard.queueActions();
        dashboard.start();
        dashboard.opened(DashboardTab.QUEUE);
    }

    @AfterEach
    void close() {
        dashboard.close();
    }

    private Item item(long id) {
        return queue.items().stream().filter(i -> i.id() == id).findFirst().orElseThrow();
    }

    private List<Long> waiting() {
        return queue.items().stream().filter(i -> i.place() == DeskQueue.Place.WAITING).map(Item::id).toList();
    }

    private Editor person(String id) {
        return actions.candidates().stream().filter(e -> e.id().equals(id)).findFirst().orElseThrow();
    }

    @Test
    void listsTheDesksQueueInClaimOrderThenWhatIsScheduled() {
        assertThat(queue.deskProperty().get().id()).isEqualTo("news");
        long urgent = dsl.fetchValue(ARTICLE.ID, ARTICLE.PRIORITY.eq(2));
        assertThat(waiting()).containsExactly(urgent, news.get(0), news.get(1), news.get(2), news.get(3));
        assertThat(queue.placeOf(item(urgent))).isEqualTo("1 \u00b7 next");
        assertThat(queue.items()).filteredOn(i -> i.place() == DeskQueue.Place.SCHEDULED).singleElement()
                .satisfies(i -> assertThat(queue.placeOf(i)).startsWith("Scheduled for "));
        assertThat(queue.summaryProperty().get()).isEqualTo("5 waiting, 1 scheduled, 0 held, 0 with writers");

        services.queue().claim("dan"); // takes the first
        ticker.advance(Duration.ofSeconds(2));
        assertThat(waiting()).as("what an editor holds is not waiting").containsExactly(news.get(0), news.get(1), news.get(2),
                news.get(3));
    }

    @Test
    void givingAWaitingArticleAsksFirstAgainOverCapacityAndSaysWhenTheEditorLacksTheDesk() {
        queue.selectedProperty().set(item(news.get(2)));
        assertThat(actions.candidates()).extracting(Editor::id).as("those of the desk first").containsExactly("ann", "dan", "sue", "bob");
        assertThat(actions.candidateLabel(person("bob"))).isEqualTo("Bob Okafor (bob) \u2014 signed out, 0 of 2 \u00b7 not on News");

        actions.giveToProperty().set(person("bob"));
        actions.reasonProperty().set("Bob covered the strike");
        actions.giveSelected();
        assertThat(actions.questionProperty().get()).isEqualTo("Give \u201cArticle 2\u201d to Bob Okafor? It is number 4 in the queue. "
                + "Bob Okafor does not work on News; this gives them the article, not the desk.");
        assertThat(dsl.fetchValue(ARTICLE.LOCKED_BY, ARTICLE.ID.eq(news.get(2)))).isNull();
        actions.confirm();

        assertThat(dsl.fetchValue(ARTICLE.LOCKED_BY, ARTICLE.ID.eq(news.get(2)))).isEqualTo("bob");
        assertThat(services.newsroom().requireEditor("bob").desks()).as("the lease, not the desk").containsExactly("sport");
        assertThat(dsl.select(LEASE_EVENT.ACTOR, LEASE_EVENT.NEW_OWNER, LEASE_EVENT.DETAIL).from(LEASE_EVENT)
                .where(LEASE_EVENT.ACTION.eq("reassign")).fetchOne().intoList()).containsExactly("sue", "bob", "Bob covered the strike");
        assertThat(services.queue().arrival(services.queue().held("bob").get(0)))
                .isEqualTo("Sue Lindqvist gave you \u201cArticle 2\u201d: \u201cBob covered the strike\u201d.");
        assertThat(waiting()).doesNotContain(news.get(2));

        services.queue().claim("dan"); // Dan's capacity is 1: full
        queue.selectedProperty().set(item(news.get(3)));
        actions.giveToProperty().set(person("dan"));
        actions.giveSelected();
        actions.confirm();
        assertThat(actions.capacityWarningProperty().get()).startsWith("Dan Ito already holds 1 of 1 articles.");
        assertThat(dsl.fetchValue(ARTICLE.LOCKED_BY, ARTICLE.ID.eq(news.get(3)))).isNull();
        actions.confirmOverCapacity();
        assertThat(dsl.fetchValue(ARTICLE.LOCKED_BY, ARTICLE.ID.eq(news.get(3)))).isEqualTo("dan");
    }

    @Test
    void movedToTheFrontItIsTheNextClaim() {
        queue.selectedProperty().set(item(news.get(3)));
        actions.reasonProperty().set("Print deadline");
        actions.moveSelectedToFront();

        assertThat(waiting().get(0)).isEqualTo(news.get(3));
        assertThat(dsl.fetchValue(LEASE_EVENT.DETAIL, LEASE_EVENT.ACTION.eq("to_front"))).isEqualTo("Print deadline (priority 3 \u2192 2)");
        HeldArticle next = services.queue().claim("dan").articles().get(0);
        assertThat(next.id()).isEqualTo(news.get(3));
    }

    @Test
    void aHeldArticleIsPassedOverByClaimsUntilTheHoldIsReleasedAndKeepsItsPlace() {
        queue.selectedProperty().set(item(news.get(0)));
        assertThat(actions.canHoldProperty().get()).as("a hold needs a reason").isFalse();
        actions.reasonProperty().set("Legal reads it first");
        actions.holdSelected();

        assertThat(item(news.get(0)).place()).isEqualTo(DeskQueue.Place.HELD);
        assertThat(queue.placeOf(item(news.get(0)))).isEqualTo("Held by Sue Lindqvist");
        List<Long> taken = services.queue().claim("ann").articles().stream().map(HeldArticle::id).toList();
        assertThat(taken).hasSize(3).doesNotContain(news.get(0));

        queue.selectedProperty().set(item(news.get(0)));
        actions.releaseSelectedHold();
        assertThat(waiting()).containsExactly(news.get(0), news.get(3));
        assertThat(dsl.select(LEASE_EVENT.ACTION).from(LEASE_EVENT).where(LEASE_EVENT.ACTOR.eq("sue")).orderBy(LEASE_EVENT.ID)
                .fetch(LEASE_EVENT.ACTION)).containsExactly("hold", "release_hold");
    }

    @Test
    void aForceReleasedArticleIsKeptFromItsHolderUntilTheSupervisorLetsThemHaveItAgain() {
        HeldArticle dans = services.queue().claim("dan").articles().get(0);
        services.supervision().forceRelease(dans.id(), "sue", "Culture desk needs it for print");
        ticker.advance(Duration.ofSeconds(2));

        assertThat(services.queue().claim("dan").articles()).extracting(HeldArticle::id).as("passed over for Dan")
                .doesNotContain(dans.id());
        services.queue().held("dan").forEach(h -> services.queue().release(h));
        ticker.advance(Duration.ofSeconds(2));
        queue.selectedProperty().set(item(dans.id()));
        assertThat(queue.notesOf(item(dans.id()))).contains("kept from Dan Ito");

        actions.letKeptEditorHaveIt();
        assertThat(dsl.fetchValue(ARTICLE.KEPT_FROM, ARTICLE.ID.eq(dans.id()))).isNull();
        dsl.update(ARTICLE).set(ARTICLE.PASSED_BY, (String) null).where(ARTICLE.ID.isNotNull()).execute(); // Dan's own release above
        assertThat(services.queue().claim("dan").articles()).extracting(HeldArticle::id).containsExactly(dans.id());
    }
}
