package org.copydesk.ui.editor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.db.schema.Tables.ARTICLE;

import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.prefs.Preferences;
import javafx.geometry.Bounds;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.Scene;
import javafx.scene.control.Control;
import javafx.scene.control.Label;
import javafx.scene.control.TextArea;
import javafx.scene.control.TitledPane;
import javafx.scene.input.KeyCode;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Region;
import javafx.stage.Stage;
import org.copydesk.review.Editor;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.Role;
import org.copydesk.review.Verdict;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The editor's window: closing or signing out while holding articles asks to give them
 * back; the reader keeps its room when the window shrinks; text size keys, remembered; a disabled
 * Submit says why; the history reads renewals as one line; notices cover no control.
 */
@ExtendWith(DatabaseExtension.class)
class EditorWindowTest {

    private final DSLContext dsl;
    private final ReviewSession session;
    private final Preferences prefs = Preferences.userRoot().node("copydesk-test/editor-window-" + ProcessHandle.current().pid());
    private Editor ann;
    private EditorViewModel model;
    private EditorView view;
    private Stage stage;
    private final FxRobot robot = new FxRobot();

    EditorWindowTest(TestDatabase db) {
        this.dsl = db.dsl();
        this.session = new ReviewSession(db.database(), ReviewSession.Options.defaults());
    }

    @BeforeEach
    void newsroom() throws Exception {
        ann = EditorNewsroom.ann(session, dsl, 4, List.of("news"));
        FxToolkit.registerPrimaryStage();
    }

    @AfterEach
    void close() throws Exception {
        EditorStages.closeAll(model, stage, prefs);
    }

    private final List<String> alerted = new CopyOnWriteArrayList<>();
    private final ManualTicker ticker = new ManualTicker();

    private void show(double width, double height) throws Exception {
        FxToolkit.setupFixture(() -> {
            model = new EditorViewModel(session, TaskExecutor.sameThread(), ticker, ann, List.of("news"),
                    EditorViewModel.Settings.defaults(), ZoneId.of("UTC"));
            view = new EditorView(model, new HBox(), prefs, (title, text) -> alerted.add(text));
            stage = new Stage();
            Scene scene = new Scene(view, width, height);
            Theme.LIGHT.apply(scene);
            stage.setScene(scene);
            stage.show();
            model.start();
        });
        WaitForAsyncUtils.waitForFxEvents();
    }

    @Test
    void closingWhileHoldingArticlesAsksAndGivesThemBackByDefaultKeepingTheNotes() throws Exception {
        Fixtures.articles(dsl, "news", 4, 3, -60);
        show(1280, 800);
        fx(() -> {
            model.notesProperty().set("half a thought");
            return null;
        });
        AtomicInteger left = new AtomicInteger();

        fx(() -> {
            view.beforeLeaving(left::incrementAndGet);
            return null;
        });
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(fx(() -> lookup("#leave-question").isVisible())).isTrue();
        assertThat(fx(() -> ((Label) lookup("#leave-title")).getText())).isEqualTo("Give back your 4 articles?");
        assertThat(left).as("nothing happens before the answer").hasValue(0);

        robot.push(KeyCode.ENTER); // giving back is the default
        WaitForAsyncUtils.waitForFxEvents();

        assertThat(left).hasValue(1);
        assertThat(dsl.fetchCount(ARTICLE, ARTICLE.LOCKED_BY.eq("ann"))).isZero();
        long first = dsl.fetchValue(ARTICLE.ID, ARTICLE.TITLE.eq("Article 0"));
        assertThat(session.drafts().load(first, "ann")).get().extracting(d -> d.notes()).isEqualTo("half a thought");
    }

    @Test
    void closingWhileAnotherWindowWorksAsTheSamePersonKeepsTheArticlesByDefaultAndSaysWhy() throws Exception {
        Fixtures.articles(dsl, "news", 4, 3, -60);
        show(1280, 800);
        AtomicInteger left = new AtomicInteger();

        fx(() -> {
            view.beforeLeaving(left::incrementAndGet, true);
            return null;
        });
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(fx(() -> ((Label) lookup("#leave-title")).getText())).isEqualTo("Close this window?");
        assertThat(fx(() -> ((Label) lookup("#leave-explanation")).getText()))
                .contains("Another Copydesk window on this computer is signed in as you", "same 4 articles", "stay yours");
        assertThat(fx(() -> lookup("#leave-give-back").isVisible())).as("nothing offered to give back").isFalse();

        robot.push(KeyCode.ENTER); // the default keeps them
        WaitForAsyncUtils.waitForFxEvents();

        assertThat(left).hasValue(1);
        assertThat(dsl.fetchCount(ARTICLE, ARTICLE.LOCKED_BY.eq("ann"))).as("still the other window's to work on").isEqualTo(4);

        // alone again, the ordinary question comes back with giving back as its default
        fx(() -> {
            view.beforeLeaving(left::incrementAndGet, false);
            return null;
        });
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(fx(() -> ((Label) lookup("#leave-title")).getText())).isEqualTo("Give back your 4 articles?");
        assertThat(fx(() -> lookup("#leave-give-back").isVisible())).isTrue();
    }

    /**
     * Notices do not cover controls: with the most notices a window shows at once, an
     * article open and its history unfolded, no notice overlaps an enabled control, at 1280x800 and
     * 1024x640. (Notices laid over the window's bottom left covered the list and History; stacked in a
     * strip they pushed the panes under themselves at 640 px high.)
     */
    @ParameterizedTest(name = "{0}x{1}")
    @CsvSource({"1280, 800", "1024, 640"})
    void noNoticeCoversAnEnabledControl(int width, int height) throws Exception {
        Fixtures.articles(dsl, "news", 4, 3, -60);
        show(width, height);
        FxToolkit.setupFixture(() -> {
            model.reload();
            model.selectNext();
            ((TitledPane) stage.getScene().lookup(".titled-pane")).setExpanded(true);
            model.tell(Notice.Kind.ERROR, "Your time on \u201cBudget vote passes after a long night in the chamber\u201d ran out. "
                    + "Your notes are kept as a draft.");
            model.tell(Notice.Kind.WARNING, "Another Copydesk window on this computer is signed in as Ann too.");
            model.tell(Notice.Kind.INFO, "3 new articles.");
            model.tell(Notice.Kind.SUCCESS, "Approved \u201cCup draw\u201d.");
        });
        WaitForAsyncUtils.waitForFxEvents();

        List<String> covered = fx(() -> {
            Parent root = stage.getScene().getRoot();
            List<Node> notices = List.copyOf(root.lookupAll(".notice"));
            assertThat(notices).as("the notices are on screen").hasSize(4);
            List<String> found = new ArrayList<>();
            for (Node control : root.lookupAll("*")) {
                if (control instanceof Control && shown(control) && !control.isDisabled() && !inNotices(control)) {
                    for (Node notice : notices) {
                        if (overlaps(sceneBounds(notice), sceneBounds(control))) {
                            found.add(control.getClass().getSimpleName() + (control.getId() == null ? "" : "#" + control.getId()));
                        }
                    }
                }
            }
            return found;
        });
        assertThat(covered).as("controls under a notice at %dx%d", width, height).isEmpty();
    }

    private static boolean shown(Node node) {
        for (Node n = node; n != null; n = n.getParent()) {
            if (!n.isVisible() || n.getOpacity() == 0) {
                return false;
            }
        }
        Bounds b = sceneBounds(node);
        return b.getWidth() > 0 && b.getHeight() > 0;
    }

    private static boolean inNotices(Node node) {
        for (Node n = node; n != null; n = n.getParent()) {
            if ("notices".equals(n.getId())) {
                return true;
            }
        }
        return false;
    }

    private static Bounds sceneBounds(Node node) {
        return node.localToScene(node.getLayoutBounds());
    }

    /** Overlapping by more than a pixel (touching edges is not covering). */
    private static boolean overlaps(Bounds a, Bounds b) {
        return a.getMinX() < b.getMaxX() - 1 && b.getMinX() < a.getMaxX() - 1
                && a.getMinY() < b.getMaxY() - 1 && b.getMinY() < a.getMaxY() - 1;
    }

    @Test
    void keepingThemLeavesTheLeasesToRunOutAndCancelStays() throws Exception {
        Fixtures.articles(dsl, "news", 1, 3, -60);
        show(1280, 800);
        AtomicInteger left = new AtomicInteger();

        fx(() -> {
            view.beforeLeaving(left::incrementAndGet);
            return null;
        });
        assertThat(fx(() -> ((Label) lookup("#leave-title")).getText())).isEqualTo("Give back your article?");
        robot.push(KeyCode.ESCAPE);
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(left).hasValue(0);
        assertThat(fx(() -> lookup("#leave-question").isVisible())).isFalse();

        fx(() -> {
            view.beforeLeaving(left::incrementAndGet);
            return null;
        });
        robot.clickOn("#leave-keep");
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(left).hasValue(1);
        assertThat(dsl.fetchCount(ARTICLE, ARTICLE.LOCKED_BY.eq("ann"))).isEqualTo(1);
    }

    @Test
    void holdingNothingLeavesWithoutAsking() throws Exception {
        show(1280, 800);
        AtomicInteger left = new AtomicInteger();
        fx(() -> {
            view.beforeLeaving(left::incrementAndGet);
            return null;
        });
        assertThat(left).hasValue(1);
        assertThat(fx(() -> lookup("#leave-question").isVisible())).isFalse();
    }

    @Test
    void whenTheWindowShrinksTheSidePanesGiveWayNeverTheReader() throws Exception {
        Fixtures.articles(dsl, "news", 2, 3, -60);
        show(1280, 800);
        assertThat(fx(() -> lookup("#reader-body").getLayoutBounds().getWidth())).isGreaterThan(500);

        for (double[] size : new double[][] {{1024, 640}, {960, 600}}) { // 960x600: a 1440x900 screen at 150 %
            resize(size[0], size[1]);
            assertThat(fx(() -> lookup("#articles").isVisible() && lookup("#articles").getScene() != null
                    && ((Region) lookup("#notes")).getWidth() > 0)).as("both side panes at %s", size[0]).isTrue();
            assertThat(fx(() -> readerWidth())).as("reader at %s", size[0]).isGreaterThanOrEqualTo(PaneWidths.READER_MIN - 12);
            assertThat(fx(() -> lookup("#submit").localToScene(0, 0).getX() + ((Region) lookup("#submit")).getWidth()))
                    .as("Submit is on screen at %s", size[0]).isLessThanOrEqualTo(size[0]);
        }

        resize(800, 600);
        assertThat(fx(() -> lookup("#list-rail") != null)).as("the list folded to a rail").isTrue();
        assertThat(fx(() -> readerWidth())).isGreaterThanOrEqualTo(PaneWidths.READER_MIN - 12);

        robot.clickOn("#list-rail");
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(fx(() -> lookup("#review-rail") != null)).as("the review panel made room for the list").isTrue();
        assertThat(fx(() -> readerWidth())).isGreaterThanOrEqualTo(PaneWidths.READER_MIN - 12);
    }

    private double readerWidth() {
        return ((Region) lookup("#reader")).getWidth();
    }

    private void resize(double width, double height) throws Exception {
        fx(() -> {
            stage.setWidth(width);
            stage.setHeight(height);
            return null;
        });
        WaitForAsyncUtils.waitForFxEvents();
        fx(() -> {
            stage.getScene().getRoot().layout();
            return null;
        });
        WaitForAsyncUtils.waitForFxEvents();
    }

    @Test
    void ctrlPlusMinusAndZeroSizeTheReaderAndNotesAndTheSizeIsRemembered() throws Exception {
        Fixtures.articles(dsl, "news", 1, 3, -60);
        show(1280, 800);
        double normal = fx(() -> ((TextArea) lookup("#reader-body")).getFont().getSize());
        assertThat(normal).as("the stylesheet's size until the editor changes it").isEqualTo(16);

        robot.press(KeyCode.CONTROL).push(KeyCode.EQUALS).push(KeyCode.EQUALS).release(KeyCode.CONTROL);
        WaitForAsyncUtils.waitForFxEvents();
        double larger = fx(() -> ((TextArea) lookup("#reader-body")).getFont().getSize());
        assertThat(larger).isGreaterThan(normal);
        assertThat(fx(() -> ((TextArea) lookup("#notes")).getFont().getSize())).isEqualTo(larger - 2);

        FxToolkit.setupFixture(() -> {
            model.close();
            stage.close();
        });
        show(1280, 800); // a new window: the size is remembered
        assertThat(fx(() -> ((TextArea) lookup("#reader-body")).getFont().getSize())).isEqualTo(larger);

        robot.press(KeyCode.CONTROL).push(KeyCode.MINUS).push(KeyCode.MINUS).push(KeyCode.MINUS).release(KeyCode.CONTROL);
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(fx(() -> ((TextArea) lookup("#reader-body")).getFont().getSize())).isLessThan(normal);
        robot.press(KeyCode.CONTROL).push(KeyCode.DIGIT0).release(KeyCode.CONTROL);
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(fx(() -> ((TextArea) lookup("#reader-body")).getFont().getSize())).isEqualTo(normal);
    }

    @Test
    void aDisabledSubmitSaysWhy() throws Exception {
        Fixtures.articles(dsl, "news", 1, 3, -60);
        show(1280, 800);
        assertThat(fx(() -> lookup("#submit").isDisabled())).isTrue();
        assertThat(fx(() -> ((Label) lookup("#submit-why")).getText())).startsWith("Choose a decision first");
        assertThat(fx(() -> lookup("#submit-why").isVisible())).isTrue();

        fx(() -> {
            model.verdictProperty().set(Verdict.REJECT);
            return null;
        });
        assertThat(fx(() -> ((Label) lookup("#submit-why")).getText())).isEqualTo("Reject needs a note: say why.");

        fx(() -> {
            model.notesProperty().set("Duplicate of yesterday's story");
            return null;
        });
        assertThat(fx(() -> lookup("#submit").isDisabled())).isFalse();
        assertThat(fx(() -> lookup("#submit-why").isVisible())).isFalse();
    }

    @Test
    void aLeaseLostRaisesADesktopAlertOnlyWhileTheWindowIsNotInFront() throws Exception {
        List<Long> ids = Fixtures.articles(dsl, "news", 2, 3, -60);
        show(1280, 800);
        fx(() -> {
            stage.requestFocus();
            return null;
        });
        session.supervision().forceRelease(ids.get(0), "sue", "Legal first");
        fx(() -> {
            ticker.advance(Duration.ofSeconds(4));
            return null;
        });
        assertThat(fx(() -> stage.isFocused())).isTrue();
        assertThat(alerted).as("in front: the notice is enough").isEmpty();

        // Monocle's headless windows keep the focus whatever another window asks, so the other half
        // (behind another window: the desktop is told) is tested on the routing itself:
        List<String> desktop = new ArrayList<>();
        boolean[] front = {false};
        var route = DesktopAttention.whileInBackground(() -> front[0], (title, text) -> desktop.add(text));
        route.accept("lost while behind");
        front[0] = true;
        route.accept("lost while in front");
        assertThat(desktop).containsExactly("lost while behind");
    }

    @Test
    void aLeaseLostWhileReadingLeavesNothingSelectedSoAClickMeantForItLandsOnNoOtherArticle() throws Exception {
        List<Long> ids = Fixtures.articles(dsl, "news", 3, 3, -60);
        show(1280, 800);
        long reading = fx(() -> model.selectedProperty().get().id());
        fx(() -> {
            model.verdictProperty().set(Verdict.APPROVE);
            model.notesProperty().set("Half done");
            return null;
        });
        session.supervision().forceRelease(reading, "sue", "Legal first");
        fx(() -> {
            ticker.advance(Duration.ofSeconds(4));
            return null;
        });
        WaitForAsyncUtils.waitForFxEvents();

        assertThat(fx(() -> model.articles().size())).as("the other two stay").isEqualTo(2);
        assertThat(fx(() -> model.selectedProperty().get())).as("no other article takes the lost one's place").isNull();
        assertThat(fx(() -> lookup("#submit").isDisabled())).as("Submit, meant for the lost article, decides nothing").isTrue();
        assertThat(ids).contains(reading);
    }

    private Node lookup(String selector) {
        return stage.getScene().lookup(selector);
    }

    private static <T> T fx(Callable<T> work) throws Exception {
        return WaitForAsyncUtils.asyncFx(work).get();
    }
}
