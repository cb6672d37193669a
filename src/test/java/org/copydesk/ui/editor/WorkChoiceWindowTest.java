package org.copydesk.ui.editor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.db.schema.Tables.EDITOR;

import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import java.util.prefs.Preferences;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.CheckBox;
import javafx.scene.control.Label;
import javafx.scene.input.KeyCode;
import javafx.scene.layout.HBox;
import javafx.stage.Stage;
import org.copydesk.review.AccountAdministration;
import org.copydesk.review.Editor;
import org.copydesk.review.Newsroom;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.ReviewStages;
import org.copydesk.review.Role;
import org.copydesk.review.SignIn;
import org.copydesk.review.WorkChoices;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
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
 * Choosing the desks and stages one takes work from (docs/workflow.md, "What an editor takes work
 * from"), by keyboard: at sign-in, ticked as last time and kept by the database; not asked of
 * someone with one desk and no stages; and again from the editor window's settings menu. News is
 * Copy edit → Legal (Lee only) → Sign-off; Sport has no stages.
 */
@ExtendWith(DatabaseExtension.class)
class WorkChoiceWindowTest {

    private static final String ANN = "wcw_ann";
    private static final String BO = "wcw_bo";
    private static final String PASSWORD = "work-choice-secret-1";

    private final TestDatabase db;
    private final DSLContext dsl;
    private final AccountAdministration accounts;
    private final Preferences prefs = Preferences.userRoot().node("copydesk-test/work-choice-" + ProcessHandle.current().pid());
    private final FxRobot robot = new FxRobot();
    private final AtomicReference<SignInViewModel.SignedIn> signedIn = new AtomicReference<>();
    private Stage stage;
    private EditorViewModel editorModel;

    WorkChoiceWindowTest(TestDatabase db) {
        this.db = db;
        this.dsl = db.dsl();
        this.accounts = new AccountAdministration(dsl);
    }

    @BeforeEach
    void newsroom() throws Exception {
        Fixtures.emptyNewsroom(dsl);
        Newsroom n = new Newsroom(dsl);
        n.addDesk("news", "News", Duration.ofMinutes(30));
        n.addDesk("sport", "Sport", Duration.ofMinutes(30));
        n.addEditor(ANN, "Ann Kowalski", Role.EDITOR, 3, List.of("news", "sport"));
        n.addEditor(BO, "Bo Berg", Role.EDITOR, 3, List.of("sport"));
        n.addEditor("wcw_lee", "Lee", Role.EDITOR, 3, List.of());
        ReviewStages stages = ReviewStages.over(dsl);
        stages.set(null, new ReviewStages.Settings("news", "copy", "Copy edit", null, null, false, false, false));
        stages.set(null, new ReviewStages.Settings("news", "legal", "Legal", null, null, true, false, true));
        stages.set(null, new ReviewStages.Settings("news", "signoff", "Sign-off", null, null, false, true, false));
        stages.setTakers(null, "news", "legal", List.of("wcw_lee"));
        accounts.createAccount(ANN, PASSWORD.toCharArray());
        accounts.createAccount(BO, PASSWORD.toCharArray());
        FxToolkit.registerPrimaryStage();
    }

    @AfterEach
    void close() throws Exception {
        SignInViewModel.SignedIn s = signedIn.get();
        EditorStages.closeAll(editorModel, stage, prefs);
        if (s != null) {
            s.session().close();
        }
        accounts.dropAccount(ANN);
        accounts.dropAccount(BO);
    }

    private SignInViewModel showSignIn(String user) throws Exception {
        signedIn.set(null);
        SignIn signIn = SignIn.to(db.endpoint().accountUrl(db.name()), user);
        SignInViewModel model = new SignInViewModel(signIn, TaskExecutor.sameThread(), new ManualTicker(), prefs);
        FxToolkit.setupFixture(() -> {
            if (stage != null) {
                stage.close();
            }
            stage = new Stage();
            Scene scene = new Scene(new SignInView(model, signedIn::set), 900, 700);
            Theme.LIGHT.apply(scene);
            stage.setScene(scene);
            stage.show();
        });
        WaitForAsyncUtils.waitForFxEvents();
        robot.clickOn("#password").write(PASSWORD).push(KeyCode.ENTER);
        WaitForAsyncUtils.waitForFxEvents();
        return model;
    }

    private static <T> T fx(Callable<T> c) throws Exception {
        return WaitForAsyncUtils.asyncFx(c).get();
    }

    private Node lookup(String id) {
        return robot.lookup(id).query();
    }

    private boolean ticked(String id) throws Exception {
        return fx(() -> ((CheckBox) lookup(id)).isSelected());
    }

    @Test
    void anEditorTicksAStageByKeyboardAndTheDatabaseKeepsItForHerNextSignIn() throws Exception {
        SignInViewModel form = showSignIn(ANN);
        assertThat(fx(() -> lookup("#desk-news").isVisible())).isTrue();
        assertThat(fx(() -> ((Label) lookup("#work-choice-hint")).getText()))
                .isEqualTo("Tick nothing to take work from every desk and stage you may work.");
        assertThat(robot.lookup("#stage-news-legal").tryQuery()).as("Legal is Lee's, not hers").isEmpty();
        assertThat(fx(() -> lookup("#start").isFocused())).isTrue();

        // Start has the focus: back past Sport and Sign-off to Copy edit, tick it, Enter starts
        robot.press(KeyCode.SHIFT).push(KeyCode.TAB).push(KeyCode.TAB).push(KeyCode.TAB).release(KeyCode.SHIFT);
        assertThat(fx(() -> lookup("#stage-news-copy").isFocused())).isTrue();
        robot.push(KeyCode.SPACE);
        assertThat(fx(() -> ((CheckBox) lookup("#desk-news")).isIndeterminate())).as("News: some of its stages").isTrue();
        robot.push(KeyCode.ENTER);
        WaitForAsyncUtils.waitForFxEvents();

        assertThat(signedIn.get()).as("signed in; " + form.workProperty().get().errorProperty().get() + form.errorProperty().get()
                + fx(() -> stage.getScene().getFocusOwner())).isNotNull();
        assertThat(signedIn.get().desks()).containsExactlyInAnyOrder("news", "sport");
        assertThat(dsl.fetchValue(EDITOR.WORK_CHOICE, EDITOR.ID.eq(ANN))).isEqualTo("news/copy");
        signedIn.get().session().close();

        showSignIn(ANN);
        assertThat(ticked("#stage-news-copy")).as("ticked as last time").isTrue();
        assertThat(ticked("#stage-news-signoff")).isFalse();
        assertThat(ticked("#desk-sport")).isFalse();
        // ticking the whole desk ticks its stages
        robot.clickOn("#desk-news");
        assertThat(ticked("#stage-news-signoff")).isTrue();
        robot.clickOn("#start");
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(dsl.fetchValue(EDITOR.WORK_CHOICE, EDITOR.ID.eq(ANN))).isEqualTo("news");
    }

    @Test
    void someoneWithOneDeskAndNoStagesIsNotAsked() throws Exception {
        showSignIn(BO);
        assertThat(signedIn.get()).as("in without a click").isNotNull();
        assertThat(signedIn.get().desks()).containsExactly("sport");
        assertThat(dsl.fetchValue(EDITOR.WORK_CHOICE, EDITOR.ID.eq(BO))).isNull();
    }

    @Test
    void theEditorsWindowChoosesAgainFromItsSettingsMenu() throws Exception {
        ReviewSession session = new ReviewSession(db.database(), ReviewSession.Options.defaults());
        Editor ann = session.newsroom().requireEditor(ANN);
        FxToolkit.setupFixture(() -> {
            editorModel = new EditorViewModel(session, TaskExecutor.sameThread(), new ManualTicker(), ann, List.of("news", "sport"),
                    EditorViewModel.Settings.defaults(), ZoneId.of("UTC"));
            EditorView view = new EditorView(editorModel, new HBox(), prefs, (title, text) -> { });
            view.offerWorkChoice(new WorkChoiceModel(session, TaskExecutor.sameThread(), ANN));
            stage = new Stage();
            Scene scene = new Scene(view, 1280, 800);
            Theme.LIGHT.apply(scene);
            stage.setScene(scene);
            stage.show();
        });
        WaitForAsyncUtils.waitForFxEvents();
        robot.clickOn("#editor-settings").clickOn("#work-choice");
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(fx(() -> lookup("#work-choice-overlay").isVisible())).isTrue();
        assertThat(fx(() -> lookup("#desk-news").isFocused())).as("the first tick has the focus").isTrue();
        // Tab past News, Copy edit and Sign-off to Sport; Space ticks it; Enter keeps
        robot.push(KeyCode.TAB).push(KeyCode.TAB).push(KeyCode.TAB).push(KeyCode.SPACE).push(KeyCode.ENTER);
        WaitForAsyncUtils.waitForFxEvents();

        assertThat(dsl.fetchValue(EDITOR.WORK_CHOICE, EDITOR.ID.eq(ANN))).isEqualTo("sport");
        assertThat(fx(() -> lookup("#work-choice-overlay").isVisible())).isFalse();
        assertThat(editorModel.notices()).extracting(n -> n.text()).contains("From now on new work comes from: Sport.");
        assertThat(fx(() -> ((Label) lookup("#desk-summary")).getText())).as("the top line names the choice at once")
                .isEqualTo("Sport");
        assertThat(WorkChoices.over(dsl).options(ANN)).filteredOn(WorkChoices.Option::chosen).hasSize(1);

        // Esc leaves the choice as it is
        robot.clickOn("#editor-settings").clickOn("#work-choice");
        WaitForAsyncUtils.waitForFxEvents();
        robot.push(KeyCode.SPACE).push(KeyCode.ESCAPE);
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(fx(() -> lookup("#work-choice-overlay").isVisible())).isFalse();
        assertThat(dsl.fetchValue(EDITOR.WORK_CHOICE, EDITOR.ID.eq(ANN))).isEqualTo("sport");

        // one stage of News instead of Sport: the top line names the desk and the stage
        robot.clickOn("#editor-settings").clickOn("#work-choice");
        WaitForAsyncUtils.waitForFxEvents();
        robot.push(KeyCode.TAB).push(KeyCode.SPACE).push(KeyCode.TAB).push(KeyCode.TAB).push(KeyCode.SPACE).push(KeyCode.ENTER);
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(dsl.fetchValue(EDITOR.WORK_CHOICE, EDITOR.ID.eq(ANN))).isEqualTo("news/copy");
        assertThat(fx(() -> ((Label) lookup("#desk-summary")).getText())).isEqualTo("News \u00b7 Copy edit");
    }
}
