package org.copydesk.ui.editor;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.prefs.Preferences;
import javafx.geometry.Bounds;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.Scene;
import javafx.scene.control.Control;
import javafx.scene.control.TitledPane;
import javafx.scene.layout.HBox;
import javafx.stage.Stage;
import org.copydesk.review.Editor;
import org.copydesk.review.ReviewServices;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.ManualTicker;
import org.copydesk.testing.TestDatabase;
import org.copydesk.ui.common.Notice;
import org.copydesk.ui.common.TaskExecutor;
import org.copydesk.ui.common.Theme;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/**
 * Issue 17, "notices do not cover controls": with the most notices a window shows at once, an
 * article open and its history unfolded, no notice overlaps any enabled control of the editor's
 * window, at 1280x800 and at 1024x640.
 */
@ExtendWith(DatabaseExtension.class)
class EditorNoticesTest {

    private final DSLContext dsl;
    private final ReviewServices services;
    private final Preferences prefs = Preferences.userRoot().node("copydesk-test/editor-notices-" + ProcessHandle.current().pid());
    private Editor ann;
    private EditorViewModel model;
    private Stage stage;

    EditorNoticesTest(TestDatabase db) {
        this.dsl = db.dsl();
        this.services = new ReviewServices(db.database(), ReviewServices.Options.defaults());
    }

    @BeforeEach
    void newsroom() throws Exception {
        ann = EditorNewsroom.ann(services, dsl, 4, List.of("news"));
        FxToolkit.registerPrimaryStage();
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
        prefs.removeNode();
    }

    @ParameterizedTest(name = "{0}x{1}")
    @CsvSource({"1280, 800", "1024, 640"})
    void noNoticeCoversAnEnabledControl(int width, int height) throws Exception {
        Fixtures.articles(dsl, "news", 4, 3, -60);
        FxToolkit.setupFixture(() -> {
            model = new EditorViewModel(services, TaskExecutor.sameThread(), new ManualTicker(), ann, List.of("news"),
                    EditorViewModel.Settings.defaults(), ZoneId.of("UTC"));
            EditorView view = new EditorView(model, new HBox(), prefs, (title, text) -> { });
            stage = new Stage();
            Scene scene = new Scene(view, width, height);
            Theme.LIGHT.apply(scene);
            stage.setScene(scene);
            stage.show();
            model.start();
            model.reload();
            model.selectNext();
            ((TitledPane) scene.lookup(".titled-pane")).setExpanded(true);
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
                        if (overlap(bounds(notice), bounds(control))) {
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
        Bounds b = bounds(node);
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

    private static Bounds bounds(Node node) {
        return node.localToScene(node.getLayoutBounds());
    }

    /** Overlapping by more than a pixel (touching edges is not covering). */
    private static boolean overlap(Bounds a, Bounds b) {
        return a.getMinX() < b.getMaxX() - 1 && b.getMinX() < a.getMaxX() - 1
                && a.getMinY() < b.getMaxY() - 1 && b.getMinY() < a.getMaxY() - 1;
    }

    private static <T> T fx(Callable<T> work) throws Exception {
        return WaitForAsyncUtils.asyncFx(work).get();
    }
}
