package org.copydesk.ui.editor;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.prefs.Preferences;
import javafx.geometry.Bounds;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.SplitPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Region;
import javafx.stage.Stage;
import org.copydesk.review.Editor;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.Verdict;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.ManualTicker;
import org.copydesk.testing.TestDatabase;
import org.copydesk.ui.ScaledWindow;
import org.copydesk.ui.Snapshots;
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
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The editor's window at the sizes people use it: 1024×640, and a 1440×900 screen at 150 %
 * scaling, which gives the window 960×600 logical pixels (the view is laid out at that size and
 * drawn 1.5 times as large, as JavaFX does for {@code -Dglass.gtk.uiScale=1.5}). At both, with a
 * returned article open, four desks and three notices: the panes never cover the toolbar nor slip
 * under the notices, every toolbar button is whole, the notes keep room to write, Submit stays in
 * view; and after resizes and theme changes the reader keeps its room.
 */
@ExtendWith(DatabaseExtension.class)
class EditorLayoutTest {

    private final DSLContext dsl;
    private final ReviewSession session;
    private final Preferences prefs = Preferences.userRoot().node("copydesk-test/editor-layout-" + ProcessHandle.current().pid());
    private final ManualTicker ticker = new ManualTicker();
    private Editor ann;
    private EditorViewModel model;
    private EditorView view;
    private Stage stage;

    EditorLayoutTest(TestDatabase db) {
        this.dsl = db.dsl();
        this.session = new ReviewSession(db.database(), ReviewSession.Options.defaults());
    }

    @BeforeEach
    void newsroom() throws Exception {
        EditorNewsroom.ann(session, dsl, 5, List.of("news", "sport"));
        session.newsroom().addEditor("bob", "Bob Marsh", org.copydesk.review.Role.EDITOR, 3, List.of("news"));
        session.newsroom().addDesk("business", "Business", Duration.ofMinutes(30));
        session.newsroom().addDesk("culture", "Culture", Duration.ofMinutes(30));
        ann = session.newsroom().setDesks("ann", List.of("news", "sport", "business", "culture"));
        WriterRevisions writer = new WriterRevisions(session);
        writer.arrives("Pool to close after a long night in the council chamber", WriterRevisions.FIRST);
        WriterRevisions.sentBackBy(session, "bob");
        writer.arrives("Pool to close after a long night in the council chamber", WriterRevisions.SECOND);
        Fixtures.articles(dsl, "news", 4, 3, -60);
        FxToolkit.registerPrimaryStage();
    }

    @AfterEach
    void close() throws Exception {
        EditorStages.closeAll(model, stage, prefs);
    }

    /** The window as the app makes it, {@code width}×{@code height} logical pixels drawn at {@code scale}. */
    private void show(double width, double height, double scale) throws Exception {
        FxToolkit.setupFixture(() -> {
            model = new EditorViewModel(session, TaskExecutor.sameThread(), ticker, ann, ann.desks(),
                    EditorViewModel.Settings.defaults(), ZoneId.of("UTC"));
            // what the app adds to the toolbar for a supervisor: Dashboard, theme, sign out
            HBox extras = new HBox(4, new Button("Dashboard"), new Button("\u263e"), new Button("\u21aa"));
            view = new EditorView(model, extras, prefs, DesktopAttention.NONE);
            stage = ScaledWindow.show(view, width, height, scale);
            model.start();
            model.tell(Notice.Kind.ERROR, "Your time on \u201cBudget vote passes after a long night in the chamber\u201d ran out. "
                    + "Your notes are kept as a draft.");
            model.tell(Notice.Kind.WARNING, "Another Copydesk window on this computer is signed in as Ann too.");
            model.tell(Notice.Kind.INFO, "5 new articles.");
        });
        WaitForAsyncUtils.waitForFxEvents();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"1024x640, 1024, 640, 1", "150 % on a 1440x900 screen, 960, 600, 1.5"})
    void nothingCoversTheToolbarOrSubmitAndTheNotesKeepTheirRoom(String what, double width, double height, double scale)
            throws Exception {
        show(width, height, scale);
        assertThat(fx(() -> model.selectedProperty().get().returned())).as("the returned article is open").isTrue();

        List<String> problems = fx(() -> {
            List<String> found = new ArrayList<>();
            Bounds toolbar = bounds(view.lookup(".toolbar-bar"));
            Bounds panes = bounds(view.lookup("#panes"));
            Bounds strip = bounds(view.lookup("#notice-strip"));
            if (panes.getMinY() < toolbar.getMaxY() - 1) {
                found.add("the panes start at " + panes.getMinY() + ", over the toolbar (ends at " + toolbar.getMaxY() + ")");
            }
            if (panes.getMaxY() > strip.getMinY() + 1) {
                found.add("the panes end at " + panes.getMaxY() + ", under the notices (from " + strip.getMinY() + ")");
            }
            for (String id : List.of("#reader-title", "#revision-heading", ".review-panel")) {
                if (bounds(view.lookup(id)).getMinY() < toolbar.getMaxY() - 1) {
                    found.add(id + " is drawn over the toolbar");
                }
            }
            for (Node button : view.lookup(".toolbar-bar").lookupAll(".button")) {
                Bounds b = bounds(button);
                if (b.getMaxX() > width + 1 || b.getWidth() < ((Region) button).prefWidth(-1) - 1) {
                    found.add("toolbar button " + button + " is cut (" + b + ")");
                }
            }
            double notes = bounds(view.lookup("#notes")).getHeight();
            if (notes < ReviewPanelView.NOTES_MIN_HEIGHT - 1) {
                found.add("the notes box is " + notes + " px tall");
            }
            Bounds submit = bounds(view.lookup("#submit"));
            if (submit.getMaxY() > strip.getMinY() + 1 || submit.getMaxY() > bounds(view.lookup("#panes")).getMaxY() + 1) {
                found.add("Submit (" + submit + ") is under the notices or off its pane");
            }
            for (Node notice : view.lookupAll(".notice")) {
                if (bounds(notice).intersects(submit)) {
                    found.add("a notice covers Submit");
                }
            }
            return found;
        });
        assertThat(problems).as("at %s", what).isEmpty();
    }

    /**
     * On a desk with a review chain, the stage's pieces fit too: the card's and the reader's stage,
     * the earlier stages' notes, "Approve → Sign-off", "Needs legal", "Send back to" — whole, with
     * the notes' room and Submit in view.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource({"1024x640, 1024, 640, 1", "150 % on a 1440x900 screen, 960, 600, 1.5"})
    void theStagesPiecesAreWholeAndLeaveTheNotesAndSubmitTheirRoom(String what, double width, double height, double scale)
            throws Exception {
        session.newsroom().addEditor("cat", "Cat Lawson", org.copydesk.review.Role.EDITOR, 3, List.of());
        EditorNewsroom.threeStageNews(session, "cat", true);
        long signedOff = Fixtures.articles(dsl, "news", 1, 1, -600).get(0);
        var held = session.queue().claim("bob").articles().stream().filter(a -> a.id() == signedOff).findFirst().orElseThrow();
        session.decisions().submit(new org.copydesk.review.DecisionRequest(java.util.UUID.randomUUID(), signedOff, held.lease(),
                Verdict.APPROVE, "Tightened the intro, checked every name against the council's minutes and cut the last "
                + "paragraph, which repeated the second."));
        session.queue().held("bob").forEach(h -> session.queue().release(h));
        show(width, height, scale);

        List<String> problems = new ArrayList<>();
        for (Verdict verdict : List.of(Verdict.SEND_BACK, Verdict.APPROVE)) {
            long open = verdict == Verdict.SEND_BACK ? signedOff
                    : fx(() -> model.articles().stream().filter(r -> "copy".equals(r.article().stage())).findFirst().orElseThrow().id());
            fx(() -> {
                model.selectedProperty().set(model.articles().stream().filter(r -> r.id() == open).findFirst().orElseThrow());
                model.verdictProperty().set(verdict);
                return null;
            });
            WaitForAsyncUtils.waitForFxEvents();
            if (verdict == Verdict.SEND_BACK && scale != 1) {
                Snapshots.save(view, "editor-stages-150-percent");
            }
            problems.addAll(fx(() -> {
                List<String> found = new ArrayList<>();
                List<String> pieces = verdict == Verdict.SEND_BACK ? List.of("#reader-stage", "#verdict-approve", "#send-back-to")
                        : List.of("#reader-stage", "#verdict-approve", "#needs-legal");
                for (String id : pieces) {
                    Node n = view.lookup(id);
                    if (n == null || !n.isVisible()) {
                        found.add(id + " is not shown (" + verdict + ")");
                    } else if (n instanceof javafx.scene.control.Labeled l && !shownWhole(l)) {
                        found.add(id + " is cut (" + verdict + ")");
                    } else if (bounds(n).getMaxX() > width + 1) {
                        found.add(id + " runs off the window (" + verdict + ")");
                    }
                }
                if (verdict == Verdict.SEND_BACK && view.lookupAll("#stage-notes .label").isEmpty()) {
                    found.add("the earlier stages' notes are not shown");
                }
                double notes = bounds(view.lookup("#notes")).getHeight();
                if (notes < ReviewPanelView.NOTES_MIN_HEIGHT - 1) {
                    found.add("the notes box is " + notes + " px tall (" + verdict + ")");
                }
                Bounds submit = bounds(view.lookup("#submit"));
                if (submit.getMaxY() > bounds(view.lookup("#notice-strip")).getMinY() + 1) {
                    found.add("Submit is under the notices (" + verdict + ")");
                }
                for (Node badge : view.lookupAll("#stage-badge")) {
                    if (badge.isVisible() && badge instanceof javafx.scene.control.Labeled l && !shownWhole(l)) {
                        found.add("the card's stage is cut: " + l.getText());
                    }
                }
                return found;
            }));
        }
        assertThat(problems).as("at %s", what).isEmpty();
    }

    @Test
    void theReaderKeepsItsRoomAfterResizesThemeChangesAndWhateverMovedTheDividers() throws Exception {
        show(1280, 800, 1);
        for (double[] size : new double[][] {{1024, 640}, {1280, 800}, {1024, 640}}) {
            FxToolkit.setupFixture(() -> {
                stage.setWidth(size[0]);
                stage.setHeight(size[1]);
            });
            WaitForAsyncUtils.waitForFxEvents();
            FxToolkit.setupFixture(() -> Theme.DARK.apply(stage.getScene()));
            WaitForAsyncUtils.waitForFxEvents();
            FxToolkit.setupFixture(() -> Theme.LIGHT.apply(stage.getScene()));
            WaitForAsyncUtils.waitForFxEvents();
            assertThat(fx(() -> view.lookup("#reader").getLayoutBounds().getWidth())).as("at %s", size[0])
                    .isGreaterThan(PaneWidths.READER_MIN - 10);
        }
        // the split pane moves its dividers by itself when its panes' sizes change; the reader once
        // stayed squeezed to 70 px until the next resize
        FxToolkit.setupFixture(() -> ((SplitPane) view.lookup("#panes")).setDividerPositions(0.6, 0.68));
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(fx(() -> view.lookup("#reader").getLayoutBounds().getWidth())).isGreaterThan(PaneWidths.READER_MIN - 10);
    }

    /** A label or button shows its whole text, not cut to "…" (its icon, a Text too, aside). */
    private static boolean shownWhole(javafx.scene.control.Labeled l) {
        List<String> shown = l.getChildrenUnmodifiable().stream().filter(n -> n instanceof javafx.scene.text.Text
                && !(n instanceof org.kordamp.ikonli.javafx.FontIcon)).map(n -> ((javafx.scene.text.Text) n).getText()).toList();
        return !shown.isEmpty() && shown.stream().allMatch(t -> t.equals(l.getText()));
    }

    /** A node's bounds in the view's own (logical) pixels, whatever the scale it is drawn at. */
    private Bounds bounds(Node node) {
        return view.sceneToLocal(node.localToScene(node.getLayoutBounds()));
    }

    private static <T> T fx(Callable<T> work) throws Exception {
        return WaitForAsyncUtils.asyncFx(work).get();
    }
}
