package org.copydesk.ui.supervisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.db.schema.Tables.STAGE_TAKER;

import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.input.KeyCode;
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
 * An admin picks who takes a stage whose takers are named, as a reassignment's person is picked:
 * found by name or account, each said with whether they are signed in and how much they hold,
 * several ticked, by keyboard (Down from the search, Space ticks). Before, the names were typed as
 * text. News is Copy edit → Legal (Cat) → Sign-off; the dashboard at 1024×640, real database.
 */
@ExtendWith(DatabaseExtension.class)
class StageTakerPickerTest {

    private final DSLContext dsl;
    private final ReviewSession services;
    private final FxRobot robot = new FxRobot();
    private DashboardViewModel model;
    private Stage stage;

    StageTakerPickerTest(TestDatabase db) {
        this.dsl = db.dsl();
        this.services = new ReviewSession(db.database(), ReviewSession.Options.defaults());
    }

    @BeforeEach
    void newsroom() {
        Fixtures.emptyNewsroom(dsl);
        services.newsroom().addDesk("news", "News", Duration.ofMinutes(30));
        services.newsroom().addEditor("ann", "Ann Kowalski", Role.EDITOR, 3, List.of("news"));
        services.newsroom().addEditor("cat", "Cat Lawson", Role.EDITOR, 3, List.of());
        services.newsroom().addEditor("dan", "Dan Ito", Role.EDITOR, 4, List.of());
        ReviewStages stages = services.stages();
        stages.set(null, new ReviewStages.Settings("news", "copy", "Copy edit", null, null, false, false, false));
        stages.set(null, new ReviewStages.Settings("news", "legal", "Legal", null, Duration.ofMinutes(60), true, false, true));
        stages.set(null, new ReviewStages.Settings("news", "signoff", "Sign-off", null, null, false, true, false));
        stages.setTakers(null, "news", "legal", List.of("cat"));
        services.queue().recordPresence("dan");
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
        model = new DashboardViewModel(services, TaskExecutor.sameThread(), new ManualTicker(), who,
                DashboardViewModel.Settings.defaults(), ZoneId.of("UTC"));
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

    /** Whether the person's tick, as shown, is ticked (the list keeps a hidden cell for measuring: not that one). */
    private boolean ticked(String person) {
        return robot.lookup("#taker-" + person).queryAll().stream().filter(StageTakerPickerTest::shown)
                .anyMatch(n -> ((CheckBox) n).isSelected());
    }

    private static boolean shown(Node n) {
        for (Node p = n; p != null; p = p.getParent()) {
            if (!p.isVisible()) {
                return false;
            }
        }
        return true;
    }

    private String labelOf(String person) {
        return robot.lookup("#stage-takers").lookup((Node n) -> n instanceof ListCell<?> c && c.getItem() instanceof Editor e
                && e.id().equals(person)).queryAs(ListCell.class).getText();
    }

    @Test
    void anAdminFindsPeopleByNameOrAccountAndTicksSeveralByKeyboard() throws Exception {
        show(services.newsroom().addEditor("ada", "Ada Admin", Role.ADMIN, 5, List.of("news")));
        FxAwait.waitFor(10, () -> robot.lookup("#stage-setup").tryQuery().isPresent());
        @SuppressWarnings("unchecked")
        ListView<org.copydesk.review.Stage> chain = robot.lookup("#stage-chain").queryAs(ListView.class);
        FxAwait.waitFor(10, () -> chain.getItems().size() == 3);
        robot.interact(() -> chain.getSelectionModel().select(1)); // Legal, named takers: Cat
        WaitForAsyncUtils.waitForFxEvents();

        assertThat(robot.lookup("#stage-takers-picker").query().isVisible()).isTrue();
        FxAwait.waitFor(10, () -> ticked("cat"));
        assertThat(labelOf("dan")).as("says who is signed in and what they hold, and the desk they lack")
                .contains("Dan Ito (dan)").contains("signed in").contains("not on News");
        assertThat(ticked("dan")).isFalse();

        robot.interact(() -> robot.lookup("#stage-takers-search").query().requestFocus());
        robot.write("ito");
        FxAwait.waitFor(10, () -> robot.lookup("#stage-takers").queryAs(ListView.class).getItems().size() == 1);
        robot.push(KeyCode.DOWN).push(KeyCode.SPACE);
        FxAwait.waitFor(10, () -> ticked("dan"));

        robot.interact(() -> robot.lookup("#stage-save").query().requestFocus());
        robot.clickOn("#stage-save");
        FxAwait.waitFor(10, () -> dsl.fetchCount(STAGE_TAKER, STAGE_TAKER.STAGE_ID.eq("legal")) == 2);
        assertThat(dsl.select(STAGE_TAKER.EDITOR_ID).from(STAGE_TAKER).where(STAGE_TAKER.STAGE_ID.eq("legal"))
                .orderBy(STAGE_TAKER.EDITOR_ID).fetch(STAGE_TAKER.EDITOR_ID)).containsExactly("cat", "dan");
    }
}
