package org.copydesk.ui.editor;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.prefs.Preferences;
import javafx.geometry.Bounds;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.scene.control.ScrollPane;
import javafx.scene.layout.HBox;
import javafx.scene.text.Text;
import javafx.scene.text.TextFlow;
import javafx.stage.Stage;
import org.copydesk.review.Editor;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.Role;
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
import org.slf4j.LoggerFactory;

/**
 * The article keeps its room at 1024x640 (TestFX, headless): a returned article under the revision
 * header, the writer's notes and the "newer version" notice. In a short window the header folds to
 * one line with a "More" button that unfolds it; in a tall one it is whole, as before.
 */
@ExtendWith(DatabaseExtension.class)
class ShortWindowReaderTest {

    /** At least this many lines of the article at 1024x640 under the header and a notice (before the header folded: 5.5). */
    private static final double LINES_AT_1024X640 = 12;

    private final DSLContext dsl;
    private final ReviewSession session;
    private final WriterRevisions writer;
    private final Preferences prefs = Preferences.userRoot().node("copydesk-test/short-window-" + ProcessHandle.current().pid());
    private final ManualTicker ticker = new ManualTicker();
    private final FxRobot robot = new FxRobot();
    private Editor bob;
    private EditorViewModel model;
    private Stage stage;

    ShortWindowReaderTest(TestDatabase db) {
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

    /** A returned article, its changes shown, and a newer version announced above it. */
    private void returnedArticleWithANewerOne(int width, int height) throws Exception {
        writer.arrives("Pool to close", WriterRevisions.FIRST);
        WriterRevisions.sentBackBy(session, "ann");
        writer.arrives("Pool to close", WriterRevisions.SECOND);
        FxToolkit.setupFixture(() -> {
            model = new EditorViewModel(session, TaskExecutor.sameThread(), ticker, bob, List.of("news"),
                    EditorViewModel.Settings.defaults(), ZoneId.of("UTC"));
            EditorView view = new EditorView(model, new HBox(), prefs, DesktopAttention.NONE);
            stage = new Stage();
            Scene scene = new Scene(view, width, height);
            Theme.LIGHT.apply(scene);
            stage.setScene(scene);
            stage.show();
            model.start();
        });
        WaitForAsyncUtils.waitForFxEvents();
        FxAwait.waitFor(10, () -> lookup("#reader-diff-pane").isVisible());
        writer.arrives("Pool to close", WriterRevisions.THIRD);
        fx(() -> {
            ticker.advance(Duration.ofSeconds(4)); // the list watch's next read
            return null;
        });
        WaitForAsyncUtils.waitForFxEvents();
        FxAwait.waitFor(10, () -> lookup("#newer-notice").isVisible());
        WaitForAsyncUtils.waitForFxEvents();
    }

    /** How many lines of the article's text the reader's pane shows, at the reader's font. */
    private double articleLines() throws Exception {
        return fx(() -> {
            ScrollPane pane = (ScrollPane) lookup("#reader-diff-pane");
            Text run = (Text) ((TextFlow) lookup("#reader-diff")).getChildren().get(0);
            Text line = new Text("Xg");
            line.setFont(run.getFont());
            double padding = ((TextFlow) lookup("#reader-diff")).getPadding().getTop()
                    + ((TextFlow) lookup("#reader-diff")).getPadding().getBottom();
            return (pane.getViewportBounds().getHeight() - padding) / line.getLayoutBounds().getHeight();
        });
    }

    private Bounds sceneBounds(String selector) throws Exception {
        return fx(() -> lookup(selector).localToScene(lookup(selector).getBoundsInLocal()));
    }

    @Test
    void at1024x640TheHeaderFoldsToOneLineAndTheArticleKeepsItsLines() throws Exception {
        returnedArticleWithANewerOne(1024, 640);

        double lines = articleLines();
        LoggerFactory.getLogger(ShortWindowReaderTest.class)
                .info("lines of the article at 1024x640 under the folded header and a notice: {}", String.format("%.1f", lines));
        assertThat(lines).as("lines of the article under the header and the notice at 1024x640").isGreaterThanOrEqualTo(LINES_AT_1024X640);
        assertThat(fx(() -> lookup("#revision-summary").isVisible() || lookup("#revision-notes-pane").isVisible()))
                .as("the notes and the word counts wait behind More").isFalse();
        assertThat(fx(() -> ((Label) lookup("#revision-heading")).getText())).as("the heading's whole text (a screen reader reads it)")
                .contains("Ann Kowalski sent revision 1 back");
        Bounds reader = sceneBounds("#reader-diff-pane");
        for (String part : List.of("#revision-heading", "#show-changes", "#clean-text", "#revision-more")) {
            Bounds b = sceneBounds(part);
            assertThat(b.getMinX()).as("%s lies over the reader, not under the article list", part)
                    .isGreaterThanOrEqualTo(reader.getMinX());
            assertThat(b.getMaxX()).as("%s within the reader's width", part).isLessThanOrEqualTo(reader.getMaxX());
            assertThat(b.getMaxY()).as("%s above the article", part).isLessThanOrEqualTo(reader.getMinY());
        }

        robot.clickOn("#revision-more");
        WaitForAsyncUtils.waitForFxEvents();

        assertThat(fx(() -> lookup("#revision-summary").isVisible() && lookup("#revision-notes-pane").isVisible()))
                .as("More unfolds the whole header").isTrue();
        assertThat(fx(() -> ((Label) lookup("#revision-summary")).getText())).contains("added");
        assertThat(fx(() -> ((Label) lookup("#revision-notes")).getText())).isEqualTo(WriterRevisions.NOTES);
        assertThat(articleLines()).as("unfolded, the header takes its room again").isLessThan(lines);

        robot.clickOn("#revision-more");
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(articleLines()).as("folded again").isEqualTo(lines);
    }

    @Test
    void inATallWindowTheHeaderIsWholeWithNoMoreButton() throws Exception {
        returnedArticleWithANewerOne(1280, 900);

        assertThat(fx(() -> lookup("#revision-summary").isVisible())).isTrue();
        assertThat(fx(() -> ((Label) lookup("#revision-heading")).isWrapText())).isTrue();
        assertThat(fx(() -> lookup("#revision-more").isVisible())).isFalse();
    }

    private Node lookup(String selector) {
        return stage.getScene().lookup(selector);
    }

    private static <T> T fx(Callable<T> work) throws Exception {
        return WaitForAsyncUtils.asyncFx(work).get();
    }
}
