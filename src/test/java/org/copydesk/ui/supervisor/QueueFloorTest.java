package org.copydesk.ui.supervisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.db.schema.Tables.ARTICLE;

import java.time.ZoneId;
import java.util.List;
import org.copydesk.review.Desk;
import org.copydesk.review.DeskQueue;
import org.copydesk.review.DeskQueue.Item;
import org.copydesk.review.Editor;
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
 * The Queue tab watches the whole floor: "All desks" lists every desk's queue at once (each waiting
 * article with its place on its own desk), and the search finds articles by title, external id or
 * the person kept from them, done by the database and bounded like the desk's own list.
 * View model, same-thread executor, real database.
 */
@ExtendWith(DatabaseExtension.class)
class QueueFloorTest {

    private final DSLContext dsl;
    private final ReviewSession services;
    private final ManualTicker ticker = new ManualTicker();
    private DashboardViewModel dashboard;
    private QueueViewModel queue;

    QueueFloorTest(TestDatabase db) {
        this.dsl = db.dsl();
        this.services = new ReviewSession(db.database(), ReviewSession.Options.defaults());
    }

    @BeforeEach
    void newsroom() {
        Editor sue = NewsroomCast.on(services, dsl).desks("news", "sport").ann("news", "sport").dan("news").sue("news");
        List<Long> news = Fixtures.articles(dsl, "news", 3, 3, -600);
        List<Long> sport = Fixtures.articles(dsl, "sport", 2, 3, -300);
        dsl.update(ARTICLE).set(ARTICLE.TITLE, "Council votes on the budget").where(ARTICLE.ID.eq(news.get(1))).execute();
        dsl.update(ARTICLE).set(ARTICLE.EXTERNAL_ID, "wire-100%_final").where(ARTICLE.ID.eq(sport.get(1))).execute();
        dsl.update(ARTICLE).set(ARTICLE.KEPT_FROM, "dan").where(ARTICLE.ID.eq(sport.get(0))).execute();
        dashboard = new DashboardViewModel(services, TaskExecutor.sameThread(), ticker, sue, DashboardViewModel.Settings.defaults(),
                ZoneId.of("UTC"));
        queue = dashboard.queue();
        dashboard.start();
        dashboard.opened(DashboardTab.QUEUE);
    }

    @AfterEach
    void close() {
        dashboard.close();
    }

    private Desk allDesks() {
        return queue.desks().stream().filter(d -> d.id().equals(DeskQueue.ALL_DESKS)).findFirst().orElseThrow();
    }

    private List<String> rows() {
        return queue.items().stream().map(i -> i.desk() + " " + queue.placeOf(i)).toList();
    }

    @Test
    void theDeskPickerOffersAllDesksAndTheQueueThenListsEveryDeskWithPlacesOnItsOwnDesk() {
        assertThat(queue.desks()).extracting(Desk::name).as("the control: one desk, the supervisor's own, to start with")
                .containsExactly("All desks", "News", "Sport");
        assertThat(queue.deskProperty().get().id()).isEqualTo("news");
        assertThat(queue.items()).extracting(Item::desk).containsOnly("news").hasSize(3);

        queue.deskProperty().set(allDesks());

        assertThat(queue.allDesksShown()).isTrue();
        assertThat(rows()).containsExactly("news 1 \u00b7 next", "news 2", "news 3", "sport 1 \u00b7 next", "sport 2");
        assertThat(queue.summaryProperty().get()).startsWith("5 waiting");
    }

    @Test
    void theSearchFindsByTitleExternalIdOrPersonKeptFromAndSaysNoFalsePlace() {
        queue.deskProperty().set(allDesks());

        queue.searchProperty().set("council");
        assertThat(queue.items()).extracting(Item::title).containsExactly("Council votes on the budget");
        assertThat(queue.placeOf(queue.items().get(0))).as("its place among the unread others is not known").isEqualTo("Waiting");

        queue.searchProperty().set("100%_"); // the wildcards match themselves
        assertThat(queue.items()).extracting(Item::desk).containsExactly("sport");

        queue.searchProperty().set("Dan Ito");
        assertThat(queue.items()).extracting(Item::desk).containsExactly("sport");

        queue.searchProperty().set("%");
        assertThat(queue.items()).as("a lone wildcard is a character like any other").extracting(Item::desk).containsExactly("sport");

        queue.searchProperty().set("");
        assertThat(queue.items()).hasSize(5);
    }

    @Test
    void everyDeskAtOnceStaysBoundedAndSaysWhenItIsCut() {
        Fixtures.articles(dsl, "sport", DeskQueue.WAITING_SHOWN, 3, -60);
        queue.deskProperty().set(allDesks());

        assertThat(queue.items()).hasSize(DeskQueue.WAITING_SHOWN);
        assertThat(queue.summaryProperty().get()).isEqualTo(
                (DeskQueue.WAITING_SHOWN + 5) + " waiting, 0 scheduled, 0 held, 0 with writers; the first " + DeskQueue.WAITING_SHOWN
                        + " waiting are listed");
    }
}
