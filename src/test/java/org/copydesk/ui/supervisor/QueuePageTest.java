package org.copydesk.ui.supervisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.db.schema.Tables.ARTICLE;

import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import java.util.function.BooleanSupplier;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableView;
import org.copydesk.review.DeskQueue.Item;
import org.copydesk.review.Editor;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.Role;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.FxAwait;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.ManualTicker;
import org.copydesk.testing.TestDatabase;
import org.copydesk.ui.common.TaskExecutor;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;

/**
 * The Queue tab on screen (headless, Monocle): a desk's queue in claim order, an article given to a
 * named editor after a question, one moved to the front, one held and released, and one kept from
 * the editor a force release took it from, let back to them with its own button.
 */
@ExtendWith(DatabaseExtension.class)
class QueuePageTest {

    private final DSLContext dsl;
    private final ReviewSession services;
    private final ManualTicker ticker = new ManualTicker();
    private final FxRobot robot = new FxRobot();
    private DashboardViewModel model;
    private DashboardOnScreen screen;
    private List<Long> ids;

    QueuePageTest(TestDatabase db) {
        this.dsl = db.dsl();
        this.services = new ReviewSession(db.database(), ReviewSession.Options.defaults());
    }

    @BeforeEach
    void show() throws Exception {
        Fixtures.emptyNewsroom(dsl);
        services.newsroom().addDesk("news", "News", Duration.ofMinutes(30));
        services.newsroom().addEditor("ann", "Ann Kowalski", Role.EDITOR, 3, List.of("news"));
        services.newsroom().addEditor("dan", "Dan Ito", Role.EDITOR, 1, List.of("news"));
        Editor sue = services.newsroom().addEditor("sue", "Sue Lindqvist", Role.SUPERVISOR, 5, List.of("news"));
        ids = Fixtures.articles(dsl, "news", 4, 3, -600);
        long annHad = services.queue().claim("ann").articles().get(0).id();
        services.queue().held("ann").stream().filter(h -> h.id() != annHad).forEach(h -> services.queue().release(h));
        dsl.update(ARTICLE).set(ARTICLE.PASSED_BY, (String) null).execute();
        services.supervision().forceRelease(annHad, "sue", "Culture desk needs it for print");
        model = new DashboardViewModel(services, TaskExecutor.sameThread(), ticker, sue, DashboardViewModel.Settings.defaults(),
                ZoneId.of("UTC"));
        screen = DashboardOnScreen.show(model, DashboardTab.QUEUE);
    }

    @AfterEach
    void close() throws Exception {
        screen.close();
    }

    private static void waitFor(BooleanSupplier condition) {
        FxAwait.waitFor(10, condition);
    }

    @SuppressWarnings("unchecked")
    private TableView<Item> queue() {
        return robot.lookup("#queue").queryAs(TableView.class);
    }

    private Node row(String title) {
        return robot.lookup("#queue").lookup((Node n) -> n instanceof TableCell<?, ?> c && title.equals(c.getText())).query();
    }

    private List<Long> order() {
        return queue().getItems().stream().map(Item::id).toList();
    }

    @Test
    void theQueueShowsWhatClaimsTakeNextAndWhatIsKeptFromWhom() {
        waitFor(() -> queue().getItems().size() == 4);
        assertThat(order()).containsExactly(ids.get(0), ids.get(1), ids.get(2), ids.get(3));
        assertThat(robot.lookup("#queue-summary").queryAs(Label.class).getText())
                .isEqualTo("4 waiting, 0 scheduled, 0 held, 0 with writers");
        assertThat(robot.lookup("#queue").lookup((Node n) -> n instanceof TableCell<?, ?> c && c.getText() != null
                && c.getText().startsWith("kept from Ann Kowalski")).tryQuery()).isPresent();

        robot.clickOn(row("Article 0"));
        Button letAgain = robot.lookup("#queue-let-again").queryAs(Button.class);
        waitFor(() -> !letAgain.isDisabled());
        assertThat(letAgain.getText()).isEqualTo("Let Ann Kowalski have it again");
        robot.clickOn(letAgain);
        waitFor(() -> dsl.fetchValue(ARTICLE.KEPT_FROM, ARTICLE.ID.eq(ids.get(0))) == null);
    }

    @Test
    @SuppressWarnings("unchecked")
    void anArticleIsGivenToANamedEditorAfterAQuestion() {
        waitFor(() -> queue().getItems().size() == 4);
        robot.clickOn(row("Article 2"));
        ComboBox<Editor> to = robot.lookup("#queue-give-to").queryAs(ComboBox.class);
        waitFor(() -> to.getItems().stream().anyMatch(e -> e.id().equals("dan")));
        // choosing from a combo's popup window is unreliable headless; pick the item as the combo would
        robot.interact(() -> to.setValue(to.getItems().stream().filter(e -> e.id().equals("dan")).findFirst().orElseThrow()));
        robot.clickOn("#queue-reason").write("Dan covers the council");
        robot.clickOn("#queue-give");
        waitFor(() -> robot.lookup("#queue-question").queryAs(Label.class).getText()
                .equals("Give \u201cArticle 2\u201d to Dan Ito? It is number 3 in the queue."));
        assertThat(dsl.fetchValue(ARTICLE.LOCKED_BY, ARTICLE.ID.eq(ids.get(2)))).isNull();
        robot.clickOn("#queue-confirm");

        waitFor(() -> "dan".equals(dsl.fetchValue(ARTICLE.LOCKED_BY, ARTICLE.ID.eq(ids.get(2)))));
        waitFor(() -> !order().contains(ids.get(2)));
    }

    @Test
    void anArticleIsMovedToTheFrontAndAnotherHeldAndReleased() {
        waitFor(() -> queue().getItems().size() == 4);
        robot.clickOn(row("Article 3"));
        robot.clickOn("#queue-front");
        waitFor(() -> order().get(0).equals(ids.get(3)));

        robot.clickOn(row("Article 1"));
        Button hold = robot.lookup("#queue-hold").queryAs(Button.class);
        assertThat(hold.isDisabled()).as("a hold needs a reason").isTrue();
        robot.clickOn("#queue-reason").write("Legal reads it first");
        robot.clickOn(hold);
        waitFor(() -> dsl.fetchValue(ARTICLE.HELD_BY, ARTICLE.ID.eq(ids.get(1))) != null);
        waitFor(() -> order().get(order().size() - 1).equals(ids.get(1)));
        assertThat(robot.lookup("#queue").lookup((Node n) -> n instanceof TableCell<?, ?> c
                && "Held by Sue Lindqvist".equals(c.getText())).tryQuery()).isPresent();

        robot.clickOn(row("Article 1"));
        robot.clickOn("#queue-release-hold");
        waitFor(() -> dsl.fetchValue(ARTICLE.HELD_BY, ARTICLE.ID.eq(ids.get(1))) == null);
        waitFor(() -> order().equals(List.of(ids.get(3), ids.get(0), ids.get(1), ids.get(2))));
    }
}
