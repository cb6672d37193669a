package org.copydesk.ui.editor;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.Scene;
import javafx.scene.control.Control;
import javafx.scene.control.Labeled;
import javafx.scene.input.KeyCode;
import javafx.scene.layout.BorderStroke;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Region;
import javafx.scene.paint.Color;
import javafx.stage.Stage;
import org.copydesk.review.Editor;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.Role;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.ManualTicker;
import org.copydesk.testing.TestDatabase;
import org.copydesk.ui.common.TaskExecutor;
import org.copydesk.ui.common.Theme;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/**
 * Tab moves the focus visibly in both themes, and typing afterwards lands where it shows: every
 * stop of the Tab order is a control that shows a focus ring, and typing there is received.
 */
@ExtendWith(DatabaseExtension.class)
class EditorFocusTest {

    private final DSLContext dsl;
    private final ReviewSession session;
    private EditorViewModel model;
    private Stage stage;

    EditorFocusTest(TestDatabase db) {
        this.dsl = db.dsl();
        this.session = new ReviewSession(db.database(), ReviewSession.Options.defaults());
    }

    @BeforeEach
    void newsroom() throws Exception {
        Fixtures.emptyNewsroom(dsl);
        session.newsroom().addDesk("news", "News", Duration.ofMinutes(30));
        Editor ann = session.newsroom().addEditor("ann", "Ann Kowalski", Role.EDITOR, 2, List.of("news"));
        Fixtures.articles(dsl, "news", 2, 3, -60);
        model = new EditorViewModel(session, TaskExecutor.sameThread(), new ManualTicker(), ann, List.of("news"),
                EditorViewModel.Settings.defaults(), ZoneId.of("UTC"));
        FxToolkit.registerPrimaryStage();
    }

    @AfterEach
    void close() throws Exception {
        FxToolkit.setupFixture(() -> {
            model.close();
            if (stage != null) {
                stage.close();
            }
        });
        Theme.LIGHT.apply(new Scene(new HBox()));
    }

    @ParameterizedTest
    @EnumSource(Theme.class)
    void everyTabStopIsAControlWithAVisibleFocusRingAndTakesTyping(Theme theme) throws Exception {
        FxToolkit.setupFixture(() -> {
            stage = new Stage();
            Scene scene = new Scene(new EditorView(model, new HBox()), 1280, 800);
            theme.apply(scene);
            stage.setScene(scene);
            stage.show();
            model.start();
        });
        WaitForAsyncUtils.waitForFxEvents();
        FxRobot robot = new FxRobot();
        fx(() -> {
            stage.getScene().lookup("#articles").requestFocus();
            return null;
        });
        List<String> stops = new ArrayList<>();
        boolean typedIntoNotes = false;
        for (int i = 0; i < 14; i++) {
            robot.push(KeyCode.TAB);
            WaitForAsyncUtils.waitForFxEvents();
            Node owner = fx(() -> stage.getScene().getFocusOwner());
            String name = describe(owner);
            stops.add(name);
            assertThat(owner).as("Tab stop %d (%s) in %s: a control, not a container", i, name, theme).isInstanceOf(Control.class);
            assertThat(fx(() -> treeVisible(owner))).as("Tab stop %s is visible", name).isTrue();
            assertThat(fx(() -> hasFocusRing(ringOf(owner)))).as("Tab stop %s in %s shows a focus ring (stops so far: %s)",
                    name, theme, stops).isTrue();
            if ("notes".equals(owner.getId()) && !typedIntoNotes) {
                robot.write("ok");
                WaitForAsyncUtils.waitForFxEvents();
                assertThat(fx(() -> model.notesProperty().get())).as("typing after Tab lands in the notes").isEqualTo("ok");
                typedIntoNotes = true;
                // leaving a text area: Ctrl+Tab, as JavaFX's text areas keep Tab for themselves
                robot.press(KeyCode.CONTROL).push(KeyCode.TAB).release(KeyCode.CONTROL);
                WaitForAsyncUtils.waitForFxEvents();
            }
        }
        org.slf4j.LoggerFactory.getLogger(EditorFocusTest.class).info("Tab stops in {}: {}", theme, stops);
        assertThat(typedIntoNotes).as("the notes are a Tab stop: %s", stops).isTrue();
    }

    /** The part that draws the ring: a titled pane's title bar, a check box's box, otherwise the control. */
    private static Region ringOf(Node owner) {
        for (String part : new String[] {".title", ".box", ".thumb-area"}) {
            Node n = owner.lookup(part);
            if (n instanceof Region r && n != owner && owner.getStyleClass().stream().anyMatch(c -> c.equals("titled-pane")
                    || c.equals("check-box") || c.equals("toggle-switch"))) {
                return r;
            }
        }
        return (Region) owner;
    }

    private static boolean hasFocusRing(Region region) {
        if (region.getBorder() == null) {
            return false;
        }
        for (BorderStroke s : region.getBorder().getStrokes()) {
            if (s.getWidths().getTop() >= 2 && s.getTopStroke() instanceof Color c && c.getOpacity() > 0) {
                return true;
            }
        }
        return false;
    }

    private static boolean treeVisible(Node node) {
        for (Node n = node; n != null; n = n.getParent()) {
            if (!n.isVisible()) {
                return false;
            }
        }
        return true;
    }

    private static String describe(Node n) {
        if (n == null) {
            return "nothing";
        }
        String text = n instanceof Labeled l ? " \"" + l.getText() + "\"" : "";
        return n.getClass().getSimpleName() + (n.getId() == null ? "" : "#" + n.getId()) + text;
    }

    private static <T> T fx(Callable<T> work) throws Exception {
        return WaitForAsyncUtils.asyncFx(work).get();
    }
}
