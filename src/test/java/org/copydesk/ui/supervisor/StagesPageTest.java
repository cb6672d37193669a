package org.copydesk.ui.supervisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.DESK_STAGE;
import static org.copydesk.db.schema.Tables.LEASE_EVENT;

import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import java.util.function.BooleanSupplier;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.ChoiceBox;
import javafx.scene.control.Label;
import javafx.scene.control.Labeled;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.text.Text;
import javafx.stage.Stage;
import org.copydesk.review.Editor;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.ReviewStages;
import org.copydesk.review.Role;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.FxAwait;
import org.copydesk.testing.ManualTicker;
import org.copydesk.testing.TestDatabase;
import org.copydesk.ui.Snapshots;
import org.copydesk.ui.common.TaskExecutor;
import org.copydesk.ui.common.Theme;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The dashboard's Stages tab at 1024×640, against the real database: News is Copy edit → Legal
 * (when asked; Cat) → Sign-off (four eyes). The board counts what waits and what is in review per
 * stage and how long the oldest waited; a supervisor moves an unheld article to another stage with
 * a reason, asked first; an admin adds a stage, moves it up, and removes a stage that holds an
 * article by saying where it goes; the database's refusal is said in one line.
 */
@ExtendWith(DatabaseExtension.class)
class StagesPageTest {

    private final DSLContext dsl;
    private final ReviewSession services;
    private final ManualTicker ticker = new ManualTicker();
    private final FxRobot robot = new FxRobot();
    private DashboardViewModel model;
    private Stage stage;
    private List<Long> ids;

    StagesPageTest(TestDatabase db) {
        this.dsl = db.dsl();
        this.services = new ReviewSession(db.database(), ReviewSession.Options.defaults());
    }

    @BeforeEach
    void newsroom() {
        Fixtures.emptyNewsroom(dsl);
        services.newsroom().addDesk("news", "News", Duration.ofMinutes(30));
        services.newsroom().addEditor("ann", "Ann Kowalski", Role.EDITOR, 1, List.of("news"));
        services.newsroom().addEditor("cat", "Cat Lawson", Role.EDITOR, 3, List.of());
        ReviewStages stages = services.stages();
        stages.set(null, new ReviewStages.Settings("news", "copy", "Copy edit", null, null, false, false, false));
        stages.set(null, new ReviewStages.Settings("news", "legal", "Legal", null, Duration.ofMinutes(60), true, false, true));
        stages.set(null, new ReviewStages.Settings("news", "signoff", "Sign-off", null, null, false, true, false));
        stages.setTakers(null, "news", "legal", List.of("cat"));
        ids = Fixtures.articles(dsl, "news", 4, 3, -600);
        services.queue().claim("ann"); // Article 0, in review at Copy edit
    }

    @AfterEach
    void close() throws Exception {
        FxToolkit.setupFixture(() -> {
            if (model != null) {
                model.close();
            }
            if (stage != null) {
                stage.close();
            }
        });
    }

    private void show(Editor who) throws Exception {
        model = new DashboardViewModel(services, TaskExecutor.sameThread(), ticker, who, DashboardViewModel.Settings.defaults(),
                ZoneId.of("UTC"));
        FxToolkit.registerPrimaryStage();
        FxToolkit.setupFixture(() -> {
            DashboardView view = new DashboardView(model);
            stage = new Stage();
            Scene scene = new Scene(view, 1024, 640);
            Theme.LIGHT.apply(scene);
            stage.setScene(scene);
            stage.show();
            model.start();
            view.show(DashboardTab.STAGES);
        });
        WaitForAsyncUtils.waitForFxEvents();
    }

    private static void waitFor(BooleanSupplier condition) {
        FxAwait.waitFor(10, condition);
    }

    private String text(String id) {
        return robot.lookup(id).queryAs(Labeled.class).getText();
    }

    private Node card(String stageId, String title) {
        return robot.lookup("#stage-cards-" + stageId).lookup((Node n) -> n instanceof ListCell<?> c && c.getItem() != null
                && c.getGraphic() != null && c.getGraphic().lookupAll(".label").stream()
                .anyMatch(l -> title.equals(((Label) l).getText()))).query();
    }

    /** The keyboard reaches a control below the fold of the 640 px window: the setup scrolls it into view. */
    private void tabTo(String id) {
        robot.interact(() -> robot.lookup(id).query().requestFocus());
        WaitForAsyncUtils.waitForFxEvents();
    }

    /** A label shows its whole text (not cut to "…"). */
    private static boolean whole(Labeled l) {
        Text shown = (Text) l.lookup(".text");
        return shown == null || shown.getText().equals(l.getText());
    }

    @Test
    void theBoardCountsEachStageAndASupervisorMovesAnUnheldArticleWithAReasonAskedFirst() throws Exception {
        show(services.newsroom().addEditor("sue", "Sue Lindqvist", Role.SUPERVISOR, 5, List.of("news")));
        waitFor(() -> robot.lookup("#stage-counts-copy").tryQuery().isPresent());
        assertThat(text("#stage-counts-copy")).isEqualTo("3 waiting \u00b7 1 in review \u00b7 oldest 10 min");
        assertThat(text("#stage-counts-legal")).isEqualTo("0 waiting \u00b7 0 in review");
        assertThat(text("#stage-counts-signoff")).isEqualTo("0 waiting \u00b7 0 in review");
        for (String id : List.of("#stage-counts-copy", "#stage-name-signoff", "#stages-chosen")) {
            assertThat(whole(robot.lookup(id).queryAs(Labeled.class))).as("%s is whole at 1024x640", id).isTrue();
        }
        assertThat(robot.lookup("#stage-setup").tryQuery()).as("only an admin sets up a chain").isEmpty();
        assertThat(robot.lookup("#holders").lookup((Node n) -> n instanceof javafx.scene.control.TableCell<?, ?> c
                && "News \u00b7 Copy edit".equals(c.getText())).tryQuery()).as("who holds what says the stage").isPresent();

        robot.clickOn(card("copy", "Article 0"));
        assertThat(text("#stages-chosen")).startsWith("\u201cArticle 0\u201d is being reviewed");
        assertThat(robot.lookup("#stages-move").queryAs(Button.class).isDisabled()).isTrue();

        robot.clickOn(card("copy", "Article 1"));
        @SuppressWarnings("unchecked")
        ChoiceBox<org.copydesk.review.Stage> to = robot.lookup("#stages-move-to").queryAs(ChoiceBox.class);
        robot.interact(() -> to.setValue(to.getItems().stream().filter(s -> s.id().equals("legal")).findFirst().orElseThrow()));
        Button move = robot.lookup("#stages-move").queryAs(Button.class);
        assertThat(move.isDisabled()).as("no move without a reason").isTrue();
        robot.clickOn("#stages-move-reason").write("the quote needs the lawyer");
        robot.clickOn(move);
        Snapshots.save(stage.getScene().getRoot(), "dashboard-stages-1024x640");
        assertThat(text("#stages-move-question")).isEqualTo(
                "Move \u201cArticle 1\u201d from Copy edit to Legal? It waits there at the front of the queue.");
        assertThat(dsl.fetchValue(ARTICLE.STAGE_ID, ARTICLE.ID.eq(ids.get(1)))).as("nothing before the answer").isEqualTo("copy");

        robot.clickOn("#stages-move-confirm");

        waitFor(() -> "legal".equals(dsl.fetchValue(ARTICLE.STAGE_ID, ARTICLE.ID.eq(ids.get(1)))));
        assertThat(dsl.fetchValue(LEASE_EVENT.DETAIL, LEASE_EVENT.ROW_KEY.eq(ids.get(1).toString()).and(LEASE_EVENT.ACTION.eq("stage"))))
                .contains("the quote needs the lawyer");
        waitFor(() -> text("#stage-counts-legal").startsWith("1 waiting"));
        assertThat(text("#stage-counts-copy")).startsWith("2 waiting \u00b7 1 in review");
    }

    @Test
    void anAdminAddsMovesAndRemovesStagesAndTheArticlesOfARemovedStageGoWhereSheSays() throws Exception {
        services.stages().moveTo(null, ids.get(2), "legal", "asked by the writer");
        show(services.newsroom().addEditor("ada", "Ada Admin", Role.ADMIN, 5, List.of("news")));
        waitFor(() -> robot.lookup("#stage-setup").tryQuery().isPresent());

        robot.clickOn("#stage-new");
        robot.clickOn("#stage-id").write("facts");
        robot.clickOn("#stage-display-name").write("Fact check");
        tabTo("#stage-when-asked");
        robot.clickOn("#stage-when-asked");
        tabTo("#stage-save");
        robot.clickOn("#stage-save");
        waitFor(() -> dsl.fetchCount(DESK_STAGE, DESK_STAGE.DESK_ID.eq("news")) == 4);
        assertThat(dsl.fetchValue(DESK_STAGE.POSITION, DESK_STAGE.STAGE_ID.eq("facts"))).isEqualTo(4);

        @SuppressWarnings("unchecked")
        ListView<org.copydesk.review.Stage> chain = robot.lookup("#stage-chain").queryAs(ListView.class);
        waitFor(() -> chain.getItems().size() == 4);
        robot.interact(() -> chain.getSelectionModel().select(3));
        robot.clickOn("#stage-up");
        waitFor(() -> dsl.select(DESK_STAGE.STAGE_ID).from(DESK_STAGE).where(DESK_STAGE.DESK_ID.eq("news"))
                .orderBy(DESK_STAGE.POSITION).fetch(DESK_STAGE.STAGE_ID).equals(List.of("copy", "legal", "facts", "signoff")));

        robot.interact(() -> chain.getSelectionModel().select(1)); // Legal, which holds Article 2
        robot.clickOn("#stage-remove");
        assertThat(text("#stage-remove-question")).isEqualTo("Legal holds 1 article in review: say where it goes, then remove it.");
        @SuppressWarnings("unchecked")
        ChoiceBox<org.copydesk.review.Stage> where = robot.lookup("#stage-remove-to").queryAs(ChoiceBox.class);
        assertThat(where.isVisible()).isTrue();
        Snapshots.save(stage.getScene().getRoot(), "dashboard-stage-setup-1024x640");
        robot.interact(() -> where.setValue(where.getItems().stream().filter(s -> s.id().equals("signoff")).findFirst().orElseThrow()));
        robot.clickOn("#stage-remove-confirm");

        waitFor(() -> dsl.fetchCount(DESK_STAGE, DESK_STAGE.STAGE_ID.eq("legal")) == 0);
        assertThat(dsl.fetchValue(ARTICLE.STAGE_ID, ARTICLE.ID.eq(ids.get(2)))).isEqualTo("signoff");

        // the database's refusal, in one line under the form
        tabTo("#stage-new");
        robot.clickOn("#stage-new");
        tabTo("#stage-id");
        robot.clickOn("#stage-id").write("bad id!");
        robot.clickOn("#stage-display-name").write("Bad");
        tabTo("#stage-save");
        robot.clickOn("#stage-save");
        waitFor(() -> robot.lookup("#stage-setup-error").queryAs(Label.class).isVisible());
        assertThat(text("#stage-setup-error")).isEqualTo("A stage id is 1 to 32 of A-Z a-z 0-9 _ . -.");
    }
}
