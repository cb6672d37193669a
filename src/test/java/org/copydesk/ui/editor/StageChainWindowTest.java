package org.copydesk.ui.editor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.ARTICLE_STAGE_REQUEST;
import static org.copydesk.db.schema.Tables.DECISION;

import java.time.ZoneId;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.prefs.Preferences;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ChoiceBox;
import javafx.scene.control.Label;
import javafx.scene.control.Labeled;
import javafx.scene.layout.HBox;
import javafx.stage.Stage;
import org.copydesk.db.schema.tables.records.ArticleRecord;
import org.copydesk.review.DecisionOutcome;
import org.copydesk.review.DecisionRequest;
import org.copydesk.review.Editor;
import org.copydesk.review.HeldArticle;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.ReviewStages;
import org.copydesk.review.Role;
import org.copydesk.review.Verdict;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.ManualTicker;
import org.copydesk.testing.TestDatabase;
import org.copydesk.ui.Snapshots;
import org.copydesk.ui.common.DesktopAttention;
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
 * The editor's window on a desk with a review chain (docs/workflow.md), against the real database:
 * News is Copy edit → Legal (when asked; Cat) → Sign-off (four eyes); Sport has no stages. The card
 * and the reader say the stage (and nothing on Sport), Approve says where the article goes and a
 * "Needs legal" tick sends it through Legal, a send-back may go to an earlier stage, the reader
 * shows the earlier stages' decisions, and a four-eyes refusal is said in plain words.
 */
@ExtendWith(DatabaseExtension.class)
class StageChainWindowTest {

    private final DSLContext dsl;
    private final ReviewSession session;
    private final Preferences prefs = Preferences.userRoot().node("copydesk-test/stage-chain-" + ProcessHandle.current().pid());
    private final ManualTicker ticker = new ManualTicker();
    private final FxRobot robot = new FxRobot();
    private Editor ann;
    private EditorViewModel model;
    private Stage stage;

    StageChainWindowTest(TestDatabase db) {
        this.dsl = db.dsl();
        this.session = new ReviewSession(db.database(), ReviewSession.Options.defaults());
    }

    @BeforeEach
    void newsroom() throws Exception {
        ann = EditorNewsroom.ann(session, dsl, 2, List.of("news", "sport"));
        session.newsroom().addEditor("dan", "Dan Ito", Role.EDITOR, 3, List.of("news"));
        session.newsroom().addEditor("cat", "Cat Lawson", Role.EDITOR, 3, List.of());
        FxToolkit.registerPrimaryStage();
    }

    @AfterEach
    void close() throws Exception {
        EditorStages.closeAll(model, stage, prefs);
    }

    private void show() throws Exception {
        FxToolkit.setupFixture(() -> {
            model = new EditorViewModel(session, TaskExecutor.sameThread(), ticker, ann, ann.desks(),
                    EditorViewModel.Settings.defaults(), ZoneId.of("UTC"));
            EditorView view = new EditorView(model, new HBox(), prefs, DesktopAttention.NONE);
            stage = new Stage();
            Scene scene = new Scene(view, 1024, 640);
            Theme.LIGHT.apply(scene);
            stage.setScene(scene);
            stage.show();
            model.start();
        });
        WaitForAsyncUtils.waitForFxEvents();
    }

    private void select(long articleId) throws Exception {
        fx(() -> {
            model.selectedProperty().set(model.articles().stream().filter(r -> r.id() == articleId).findFirst().orElseThrow());
            return null;
        });
        WaitForAsyncUtils.waitForFxEvents();
    }

    /** Chooses a decision with notes and submits it; it is sent once the undo window has passed. */
    private void decide(Verdict verdict, String notes) throws Exception {
        fx(() -> {
            model.verdictProperty().set(verdict);
            model.notesProperty().set(notes);
            model.submit();
            return null;
        });
        robot.interact(() -> ticker.advance(EditorViewModel.UNDO_WINDOW.plusSeconds(1)));
        WaitForAsyncUtils.waitForFxEvents();
    }

    /** {@code editor} takes the article (from their own claim) and decides it, outside the window. */
    private void decidedBy(String editor, long id, Verdict verdict, String notes) {
        HeldArticle held = session.queue().claim(editor).articles().stream().filter(a -> a.id() == id).findFirst().orElseThrow();
        assertThat(session.decisions().submit(new DecisionRequest(UUID.randomUUID(), id, held.lease(), verdict, notes)))
                .isInstanceOf(DecisionOutcome.Recorded.class);
    }

    private ArticleRecord article(long id) {
        return dsl.selectFrom(ARTICLE).where(ARTICLE.ID.eq(id)).fetchOne();
    }

    private String text(String id) {
        return robot.lookup(id).queryAs(Labeled.class).getText();
    }

    private static boolean shown(Node n) {
        for (Node p = n; p != null; p = p.getParent()) {
            if (!p.isVisible()) {
                return false;
            }
        }
        return true;
    }

    @Test
    void theCardAndTheReaderSayTheStageApproveSaysWhereItGoesAndNeedsLegalSendsItThroughLegal() throws Exception {
        EditorNewsroom.threeStageNews(session, "cat", true);
        long news = Fixtures.articles(dsl, "news", 1, 3, -120).get(0);
        long sport = Fixtures.articles(dsl, "sport", 1, 3, -60).get(0);
        show();
        assertThat(fx(() -> model.articles().size())).isEqualTo(2);

        // the card: the stage on News, nothing on Sport (as on every desk before stages)
        assertThat(fx(() -> robot.lookup("#stage-badge").queryAllAs(Label.class).stream().filter(StageChainWindowTest::shown)
                .map(Label::getText).toList())).containsExactly("Copy edit \u00b7 1 of 3");

        select(sport);
        assertThat(robot.lookup("#reader-stage").query().isVisible()).as("no stage on a desk without stages").isFalse();
        assertThat(text("#verdict-approve")).isEqualTo("Approve");
        assertThat(robot.lookup("#needs-legal").tryQuery()).isEmpty();

        select(news);
        assertThat(text("#reader-stage")).isEqualTo("Copy edit \u00b7 1 of 3");
        assertThat(text("#verdict-approve")).isEqualTo("Approve \u2192 Sign-off");
        fx(() -> {
            model.verdictProperty().set(Verdict.APPROVE);
            return null;
        });
        CheckBox needsLegal = robot.lookup("#needs-legal").queryAs(CheckBox.class);
        assertThat(needsLegal.getText()).isEqualTo("Needs legal");
        assertThat(shown(needsLegal)).isTrue();
        robot.clickOn(needsLegal);
        assertThat(text("#verdict-approve")).isEqualTo("Approve \u2192 Legal");
        Snapshots.save(stage.getScene().getRoot(), "editor-stages-1024x640");

        decide(Verdict.APPROVE, "");

        assertThat(fx(() -> model.articles().stream().map(LeaseRow::id).toList())).as("the card left").containsExactly(sport);
        assertThat(article(news).getStageId()).isEqualTo("legal");
        assertThat(dsl.fetchCount(ARTICLE_STAGE_REQUEST, ARTICLE_STAGE_REQUEST.ARTICLE_ID.eq(news))).isEqualTo(1);
        assertThat(session.queue().claim("cat").articles()).extracting(HeldArticle::id).as("Cat reads it for Legal")
                .containsExactly(news);
    }

    @Test
    void theReaderShowsTheEarlierStagesAndASendBackGoesToAnEarlierStageWithItsNotes() throws Exception {
        EditorNewsroom.threeStageNews(session, "cat", true);
        long id = Fixtures.articles(dsl, "news", 1, 3, -120).get(0);
        decidedBy("dan", id, Verdict.APPROVE, "tightened the intro"); // Copy edit → Sign-off; Ann may sign it off
        show();

        assertThat(text("#reader-stage")).isEqualTo("Sign-off \u00b7 3 of 3");
        assertThat(robot.lookup("#stage-notes").lookup((Node n) -> n instanceof Label).queryAllAs(Label.class))
                .extracting(Label::getText).singleElement().asString()
                .startsWith("Copy edit: Dan Ito approved at ").endsWith(" \u2014 tightened the intro");
        assertThat(text("#verdict-approve")).isEqualTo("Approve (final)");

        fx(() -> {
            model.verdictProperty().set(Verdict.SEND_BACK);
            return null;
        });
        @SuppressWarnings("unchecked")
        ChoiceBox<org.copydesk.review.Stage> to = robot.lookup("#send-back-to").queryAs(ChoiceBox.class);
        assertThat(shown(to)).isTrue();
        assertThat(fx(() -> to.getItems().stream().map(s -> to.getConverter().toString(s)).toList()))
                .containsExactly("The writer", "Copy edit", "Legal");
        fx(() -> {
            to.setValue(to.getItems().get(1));
            model.notesProperty().set("the quote in para 3 needs a source");
            return null;
        });
        Snapshots.save(stage.getScene().getRoot(), "editor-stages-send-back-1024x640");
        decide(Verdict.SEND_BACK, "the quote in para 3 needs a source");

        ArticleRecord a = article(id);
        assertThat(a.getStageId()).as("back at Copy edit, not with the writer").isEqualTo("copy");
        assertThat(a.getStatus().getLiteral()).isEqualTo("queued");
        assertThat(a.getPass()).isEqualTo(2);
        assertThat(dsl.select(DECISION.STAGE_ID, DECISION.VERDICT).from(DECISION).where(DECISION.ARTICLE_ID.eq(id))
                .orderBy(DECISION.ID).fetch().map(r -> r.value1() + " " + r.value2().getLiteral()))
                .containsExactly("copy approve", "signoff send_back");
    }

    @Test
    void aFourEyesRefusalIsSaidInPlainWordsAndTheArticleStaysWithItsNotes() throws Exception {
        EditorNewsroom.threeStageNews(session, "cat", false);
        long id = Fixtures.articles(dsl, "news", 1, 3, -120).get(0);
        decidedBy("ann", id, Verdict.APPROVE, "copy-edited"); // Ann copy-edits it; Sign-off has no four eyes yet
        show();
        assertThat(text("#reader-stage")).isEqualTo("Sign-off \u00b7 3 of 3");
        // an admin turns four eyes on while Ann holds it at Sign-off: the database refuses her approval
        session.stages().set(null, new ReviewStages.Settings("news", "signoff", "Sign-off", null, null, false, true, false));

        decide(Verdict.APPROVE, "fine by me");

        assertThat(fx(() -> model.articles().stream().map(LeaseRow::id).toList())).as("the article is back").containsExactly(id);
        assertThat(text("#submit-refused")).isEqualTo("You approved this article at an earlier stage, so someone else must "
                + "approve it at Sign-off (four eyes). Give it back (" + EditorView.RELEASE.getDisplayText()
                + ") for another editor, or send it back.");
        assertThat(fx(() -> model.notesProperty().get())).isEqualTo("fine by me");
        assertThat(article(id).getStageId()).isEqualTo("signoff");
        assertThat(article(id).getStatus().getLiteral()).isEqualTo("queued");
    }

    private static <T> T fx(Callable<T> work) throws Exception {
        return WaitForAsyncUtils.asyncFx(work).get();
    }
}
