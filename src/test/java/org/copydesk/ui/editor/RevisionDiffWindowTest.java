package org.copydesk.ui.editor;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.prefs.Preferences;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.scene.control.TextArea;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Region;
import javafx.scene.paint.Color;
import javafx.scene.text.Text;
import javafx.scene.text.TextFlow;
import javafx.stage.Stage;
import org.copydesk.review.Editor;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.Role;
import org.copydesk.review.Verdict;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.FxAwait;
import org.copydesk.testing.ManualTicker;
import org.copydesk.testing.TestDatabase;
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
 * Revisions in the editor's window (TestFX, headless): the returned article's changes are marked —
 * struck through and underlined, not by colour alone — under the notes that asked for them; "Clean
 * text" shows the plain text and is remembered; a newer version is announced above the reader with
 * a button that shows it; a refused decision is said beside Submit.
 */
@ExtendWith(DatabaseExtension.class)
class RevisionDiffWindowTest {

    private final DSLContext dsl;
    private final ReviewSession session;
    private final WriterRevisions writer;
    private final Preferences prefs = Preferences.userRoot().node("copydesk-test/revision-window-" + ProcessHandle.current().pid());
    private final ManualTicker ticker = new ManualTicker();
    private final FxRobot robot = new FxRobot();
    private Editor bob;
    private EditorViewModel model;
    private Stage stage;

    RevisionDiffWindowTest(TestDatabase db) {
        this.dsl = db.dsl();
        this.session = new ReviewSession(db.database(), ReviewSession.Options.defaults());
        this.writer = new WriterRevisions(session);
    }

    @BeforeEach
    void newsroom() throws Exception {
        EditorNewsroom.ann(session, dsl, 3, List.of("news"));
        bob = session.newsroom().addEditor("bob", "Bob Marsh", Role.EDITOR, 3, List.of("news"));
        FxToolkit.registerPrimaryStage();
    }

    @AfterEach
    void close() throws Exception {
        EditorStages.closeAll(model, stage, prefs);
    }

    private void show(Theme theme) throws Exception {
        FxToolkit.setupFixture(() -> {
            model = new EditorViewModel(session, TaskExecutor.sameThread(), ticker, bob, List.of("news"),
                    EditorViewModel.Settings.defaults(), ZoneId.of("UTC"));
            EditorView view = new EditorView(model, new HBox(), prefs, DesktopAttention.NONE);
            stage = new Stage();
            Scene scene = new Scene(view, 1024, 640);
            theme.apply(scene);
            stage.setScene(scene);
            stage.show();
            model.start();
        });
        WaitForAsyncUtils.waitForFxEvents();
    }

    private void returnedArticle() {
        writer.arrives("Pool to close", WriterRevisions.FIRST);
        WriterRevisions.sentBackBy(session, "ann");
        writer.arrives("Pool to close", WriterRevisions.SECOND);
    }

    @Test
    void aReturnedArticlesChangesAreMarkedUnderTheNotesAndCleanTextIsOneClickAwayAndRemembered() throws Exception {
        returnedArticle();
        show(Theme.DARK);
        FxAwait.waitFor(10, () -> lookup("#reader-diff-pane").isVisible());

        assertThat(fx(() -> lookup("#returned-mark").isVisible())).as("marked in the list").isTrue();
        assertThat(fx(() -> ((Label) lookup("#returned-mark")).getText())).isEqualTo("Returned");
        assertThat(fx(() -> lookup("#reader-body").isVisible())).as("the plain text is covered").isFalse();
        assertThat(fx(() -> ((Label) lookup("#revision-notes")).getText())).isEqualTo(WriterRevisions.NOTES);
        assertThat(fx(() -> ((Label) lookup("#revision-heading")).getText())).contains("Ann Kowalski sent revision 1 back");
        List<Text> runs = fx(() -> ((TextFlow) lookup("#reader-diff")).getChildren().stream().map(n -> (Text) n).toList());
        assertThat(runs).filteredOn(Text::isStrikethrough).extracting(Text::getText).containsExactly("7-2");
        assertThat(runs).filteredOn(Text::isUnderline).extracting(Text::getText).containsExactly("8-1", "evening");
        assertThat(fx(() -> runs.get(0).getFill().equals(Color.BLACK)))
                .as("unchanged words take the theme's text colour (dark theme)").isFalse();
        assertThat(fx(() -> lookup("#reader-diff").getAccessibleText())).contains("[removed: 7-2]", "[added: 8-1]");
        assertThat(fx(() -> lookup("#reader-diff-pane").localToScene(0, 0).getY() + 10))
                .as("the marked text is on screen at 1024x640").isLessThan(600);
        assertThat(fx(() -> ((Region) lookup("#reader-diff-pane")).getHeight()))
                .as("and has room to be read").isGreaterThan(150);

        robot.clickOn("#clean-text");
        WaitForAsyncUtils.waitForFxEvents();

        assertThat(fx(() -> lookup("#reader-body").isVisible())).isTrue();
        assertThat(fx(() -> lookup("#reader-diff-pane").isVisible())).isFalse();
        assertThat(fx(() -> ((TextArea) lookup("#reader-body")).getText())).isEqualTo(WriterRevisions.SECOND);
        FxAwait.waitFor(10, () -> !EditorPreferences.load(prefs).showChanges());

        robot.clickOn("#clean-text"); // pressing the chosen one again keeps it chosen
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(fx(() -> lookup("#reader-body").isVisible())).isTrue();
        robot.clickOn("#show-changes");
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(fx(() -> lookup("#reader-diff-pane").isVisible())).isTrue();
        FxAwait.waitFor(10, () -> EditorPreferences.load(prefs).showChanges());
    }

    @Test
    void aNewerVersionIsAnnouncedAboveTheReaderAndItsButtonShowsWhatChanged() throws Exception {
        writer.arrives("Pool to close", WriterRevisions.FIRST);
        show(Theme.LIGHT);
        FxAwait.waitFor(10, () -> model.articles().size() == 1);
        assertThat(fx(() -> lookup("#newer-notice").isVisible())).isFalse();

        writer.arrives("Pool to close", WriterRevisions.SECOND);
        fx(() -> {
            ticker.advance(Duration.ofSeconds(4)); // the list watch's next read
            return null;
        });
        WaitForAsyncUtils.waitForFxEvents();

        assertThat(fx(() -> lookup("#newer-notice").isVisible())).isTrue();
        assertThat(fx(() -> ((Label) lookup("#newer-revision")).getText()))
                .isEqualTo("The writer sent a newer version (revision 2). Your notes are kept.");
        assertThat(fx(() -> lookup("#reader-diff-pane").isVisible())).isFalse();

        robot.clickOn("#load-newer");
        WaitForAsyncUtils.waitForFxEvents();

        assertThat(fx(() -> lookup("#newer-notice").isVisible())).isFalse();
        assertThat(fx(() -> ((Label) lookup("#revision-heading")).getText()))
                .isEqualTo("Changes from revision 1, which you were reading, to revision 2.");
        assertThat(fx(() -> lookup("#reader-diff-pane").isVisible())).isTrue();
        assertThat(fx(() -> lookup("#revision-notes-pane").isVisible()))
                .as("no notes to show for a version taken while reading").isFalse();
    }

    @Test
    void aDecisionOnTheOldVersionIsRefusedBesideSubmitAndTheNotesStayInTheField() throws Exception {
        writer.arrives("Pool to close", WriterRevisions.FIRST);
        show(Theme.LIGHT);
        FxAwait.waitFor(10, () -> model.articles().size() == 1);
        writer.arrives("Pool to close", WriterRevisions.SECOND);

        fx(() -> {
            model.verdictProperty().set(Verdict.APPROVE);
            model.notesProperty().set("Good to go.");
            model.submit();
            ticker.advance(EditorViewModel.UNDO_WINDOW.plusSeconds(1));
            return null;
        });
        WaitForAsyncUtils.waitForFxEvents();

        assertThat(fx(() -> lookup("#submit-refused").isVisible())).isTrue();
        assertThat(fx(() -> ((Label) lookup("#submit-refused")).getText())).isEqualTo(RevisionWords.outdated());
        assertThat(fx(() -> ((TextArea) lookup("#notes")).getText())).isEqualTo("Good to go.");
        assertThat(fx(() -> lookup("#newer-notice").isVisible())).isTrue();
        assertThat(fx(() -> lookup("#submit-refused").localToScene(0, 0).getY()))
                .as("next to Submit").isGreaterThan(fx(() -> lookup("#submit").localToScene(0, 0).getY()));
    }

    private Node lookup(String selector) {
        return stage.getScene().lookup(selector);
    }

    private static <T> T fx(Callable<T> work) throws Exception {
        return WaitForAsyncUtils.asyncFx(work).get();
    }
}
