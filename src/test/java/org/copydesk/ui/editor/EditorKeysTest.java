package org.copydesk.ui.editor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.DESK;

import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.prefs.Preferences;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.scene.input.KeyCode;
import javafx.scene.layout.HBox;
import javafx.stage.Stage;
import org.copydesk.review.Editor;
import org.copydesk.review.ReviewSession;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.FxAwait;
import org.copydesk.testing.ManualTicker;
import org.copydesk.testing.TestDatabase;
import org.copydesk.ui.common.DesktopAttention;
import org.copydesk.ui.common.Notice;
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
 * The keys for what the editor could only click before (Undo, "Show the new version", "Keep it"),
 * in the shortcuts card; and a notice about an article that left says "notes kept" only when there
 * were notes.
 */
@ExtendWith(DatabaseExtension.class)
class EditorKeysTest {

    private final DSLContext dsl;
    private final ReviewSession session;
    private final Preferences prefs = Preferences.userRoot().node("copydesk-test/editor-keys-" + ProcessHandle.current().pid());
    private final ManualTicker ticker = new ManualTicker();
    private final FxRobot robot = new FxRobot();
    private Editor ann;
    private EditorViewModel model;
    private Stage stage;

    EditorKeysTest(TestDatabase db) {
        this.dsl = db.dsl();
        this.session = new ReviewSession(db.database(), ReviewSession.Options.defaults());
    }

    @BeforeEach
    void newsroom() throws Exception {
        ann = EditorNewsroom.ann(session, dsl, 3, List.of("news"));
        FxToolkit.registerPrimaryStage();
    }

    @AfterEach
    void close() throws Exception {
        EditorStages.closeAll(model, stage, prefs);
    }

    private void show() throws Exception {
        FxToolkit.setupFixture(() -> {
            model = new EditorViewModel(session, TaskExecutor.sameThread(), ticker, ann, List.of("news"),
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

    /** Ctrl (the platform's shortcut key) + Shift + {@code key}. */
    private void ctrlShift(KeyCode key) {
        robot.press(KeyCode.CONTROL, KeyCode.SHIFT).push(key).release(KeyCode.SHIFT, KeyCode.CONTROL);
        WaitForAsyncUtils.waitForFxEvents();
    }

    private void advance(Duration by) {
        robot.interact(() -> ticker.advance(by));
        WaitForAsyncUtils.waitForFxEvents();
    }

    private List<String> notices() throws Exception {
        return fx(() -> model.notices().stream().map(Notice::text).toList());
    }

    @Test
    void theUndoKeyTakesBackTheDecisionJustMadeAndIsTheNotesOwnOtherwise() throws Exception {
        long id = Fixtures.articles(dsl, "news", 1, 3, -60).get(0);
        show();
        robot.press(KeyCode.CONTROL).push(KeyCode.DIGIT1).release(KeyCode.CONTROL); // Approve
        robot.press(KeyCode.CONTROL).push(KeyCode.ENTER).release(KeyCode.CONTROL); // Submit
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(fx(() -> model.articles().size())).as("it left the list, waiting out its undo window").isZero();

        ctrlShift(KeyCode.Z);

        assertThat(fx(() -> model.articles().stream().map(LeaseRow::id).toList())).containsExactly(id);
        assertThat(notices()).contains("Not sent: \u201cArticle 0\u201d is back in your list.");
        advance(EditorViewModel.UNDO_WINDOW.plusSeconds(1));
        assertThat(dsl.fetchValue(ARTICLE.STATUS, ARTICLE.ID.eq(id)).getLiteral()).as("nothing was sent").isEqualTo("queued");

        ctrlShift(KeyCode.Z); // nothing waits: the key does nothing here (in the notes it is their redo)
        assertThat(fx(() -> model.articles().size())).isEqualTo(1);
    }

    @Test
    void theShowTheNewVersionKeyTakesTheNewerRevision() throws Exception {
        WriterRevisions writer = new WriterRevisions(session);
        writer.arrives("Pool to close", WriterRevisions.FIRST);
        show();
        FxAwait.waitFor(10, () -> model.articles().size() == 1);
        writer.arrives("Pool to close", WriterRevisions.SECOND);
        advance(Duration.ofSeconds(4)); // the list watch's next read
        assertThat(fx(() -> lookup("#newer-notice").isVisible())).isTrue();

        ctrlShift(KeyCode.N);

        assertThat(fx(() -> lookup("#newer-notice").isVisible())).isFalse();
        assertThat(fx(() -> ((Label) lookup("#revision-heading")).getText()))
                .isEqualTo("Changes from revision 1, which you were reading, to revision 2.");
    }

    @Test
    void theKeepItKeyRenewsTheLeaseAboutToRunOut() throws Exception {
        dsl.update(DESK).set(DESK.LEASE_SECONDS, 150).execute();
        long id = Fixtures.articles(dsl, "news", 1, 3, -60).get(0);
        show();
        LocalDateTime before = dsl.fetchValue(ARTICLE.EXPIRES_AT, ARTICLE.ID.eq(id));
        advance(Duration.ofSeconds(35)); // under two minutes left: "goes back to the queue in 1 min … Keep it"
        assertThat(notices()).anyMatch(t -> t.contains("goes back to the queue in"));
        Thread.sleep(1100); // the renewed lease ends a measurable moment later by the server's clock

        ctrlShift(KeyCode.K);

        assertThat(dsl.fetchValue(ARTICLE.EXPIRES_AT, ARTICLE.ID.eq(id))).isAfter(before);
        assertThat(notices()).noneMatch(t -> t.contains("goes back to the queue in"));
    }

    @Test
    void aLeaseThatRanOutWithoutNotesSaysNothingAboutNotesKept() throws Exception {
        dsl.update(DESK).set(DESK.LEASE_SECONDS, 150).execute();
        Fixtures.articles(dsl, "news", 1, 3, -60);
        show();
        advance(Duration.ofMinutes(12)); // idle: the heartbeat stops renewing
        advance(Duration.ofSeconds(40)); // and the lease runs out

        assertThat(notices()).contains("Your time on \u201cArticle 0\u201d ran out and it went back to the queue.");
        assertThat(notices()).noneMatch(t -> t.contains("notes"));
    }

    @Test
    void theShortcutsCardListsTheNewKeys() throws Exception {
        show();
        robot.push(KeyCode.F1);
        List<String> lines = fx(() -> lookup("#help-overlay").lookupAll(".label").stream().map(n -> ((Label) n).getText()).toList());
        assertThat(lines).contains(EditorView.UNDO.getDisplayText(), EditorView.SHOW_NEWER.getDisplayText(),
                EditorView.KEEP.getDisplayText(), "Undo the decision just made (while Undo shows)",
                "Show the new version, when the writer sent one", "Keep it: renew the leases about to run out");
    }

    private Node lookup(String id) {
        return stage.getScene().lookup(id);
    }

    private static <T> T fx(Callable<T> work) throws Exception {
        return WaitForAsyncUtils.asyncFx(work).get();
    }
}
