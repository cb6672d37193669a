package org.copydesk.ui.editor;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.prefs.Preferences;
import javafx.css.PseudoClass;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.layout.HBox;
import javafx.stage.Stage;
import org.copydesk.review.Editor;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.Role;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.ManualTicker;
import org.copydesk.testing.TestDatabase;
import org.copydesk.ui.ScaledWindow;
import org.copydesk.ui.Snapshots;
import org.copydesk.ui.common.DesktopAttention;
import org.copydesk.ui.common.TaskExecutor;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.kordamp.ikonli.feather.Feather;
import org.kordamp.ikonli.javafx.FontIcon;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/**
 * Deadlines in the editor's window, against the real database at 1024×640 (and 150 %): each card and the
 * reader's header say the time left ("due in 25 min"), a late article is marked (the danger colour,
 * a warning icon and "late by"), an article without a due time shows nothing, a screen reader hears
 * the due time with the card, and a due time moved by a supervisor shows within the list's next look.
 */
@ExtendWith(DatabaseExtension.class)
class DueTimeWindowTest {

    private static final PseudoClass LATE = PseudoClass.getPseudoClass("late");

    private final DSLContext dsl;
    private final ReviewSession session;
    private final Preferences prefs = Preferences.userRoot().node("copydesk-test/due-window-" + ProcessHandle.current().pid());
    private final ManualTicker ticker = new ManualTicker();
    private final FxRobot robot = new FxRobot();
    private Editor ann;
    private EditorViewModel model;
    private EditorView view;
    private Stage stage;

    DueTimeWindowTest(TestDatabase db) {
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
        show(1024, 640, 1);
    }

    /** The window at {@code width}×{@code height} logical pixels drawn at {@code scale} (as EditorLayoutTest does for 150 %). */
    private void show(double width, double height, double scale) throws Exception {
        FxToolkit.setupFixture(() -> {
            model = new EditorViewModel(session, TaskExecutor.sameThread(), ticker, ann, ann.desks(),
                    EditorViewModel.Settings.defaults(), ZoneId.of("UTC"));
            view = new EditorView(model, new HBox(), prefs, DesktopAttention.NONE);
            stage = ScaledWindow.show(view, width, height, scale);
            model.start();
        });
        tick();
    }

    private void tick() {
        robot.interact(() -> ticker.advance(Duration.ofSeconds(1)));
        WaitForAsyncUtils.waitForFxEvents();
    }

    /** The card of the article titled {@code title}. */
    @SuppressWarnings("unchecked")
    private ListCell<LeaseRow> card(String title) throws Exception {
        return fx(() -> robot.lookup(".list-cell").queryAll().stream().map(n -> (ListCell<LeaseRow>) n)
                .filter(c -> c.getItem() != null && c.getItem().article().title().equals(title)).findFirst().orElseThrow());
    }

    private static Label due(Node within) {
        return (Label) within.lookup("#due-time");
    }

    private static boolean shown(Node n) {
        for (Node p = n; p != null; p = p.getParent()) {
            if (!p.isVisible()) {
                return false;
            }
        }
        return true;
    }

    private static boolean whole(Label l) {
        return l.getWidth() + 0.5 >= l.prefWidth(-1);
    }

    /** True if {@code n} is drawn within {@code container}'s bounds (not off its right edge, behind a scroll bar). */
    private static boolean inside(Node n, Node container) {
        return n.localToScene(n.getBoundsInLocal()).getMaxX() <= container.localToScene(container.getBoundsInLocal()).getMaxX() + 0.5;
    }

    private static Feather icon(Label l) {
        return (Feather) ((FontIcon) l.getGraphic()).getIconCode();
    }

    @Test
    void theCardsAndTheReaderShowTheTimeLeftAndALateArticleMarked() throws Exception {
        List<Long> ids = Fixtures.articles(dsl, "news", 3, 3, -60);
        Deadlines.due(session, dsl, ids.get(0), Duration.ofMinutes(-12).minusSeconds(20));
        Deadlines.due(session, dsl, ids.get(1), Duration.ofMinutes(25));
        show();

        ListCell<LeaseRow> late = card("Article 0");
        ListCell<LeaseRow> soon = card("Article 1");
        ListCell<LeaseRow> none = card("Article 2");
        assertThat(due(late).getText()).isEqualTo("late by 12 min");
        assertThat(due(late).getPseudoClassStates()).contains(LATE);
        assertThat(icon(due(late))).as("not by colour alone").isEqualTo(Feather.ALERT_TRIANGLE);
        assertThat(due(soon).getText()).isEqualTo("due in 25 min");
        assertThat(due(soon).getPseudoClassStates()).doesNotContain(LATE);
        assertThat(icon(due(soon))).isEqualTo(Feather.FLAG);
        assertThat(shown(due(none))).as("nothing for an article without a due time").isFalse();
        assertThat(shown(due(soon))).isTrue();
        assertThat(soon.getAccessibleText()).isEqualTo("Article 1. News, priority 3. due in 25 min. Lease: 29 min left.");
        assertThat(none.getAccessibleText()).isEqualTo("Article 2. News, priority 3. Lease: 29 min left.");

        Label reader = robot.lookup("#reader-due").queryAs(Label.class);
        assertThat(fx(() -> model.selectedProperty().get().article().title())).as("the late one first: the claim order")
                .isEqualTo("Article 0");
        assertThat(reader.getText()).isEqualTo("late by 12 min");
        assertThat(reader.getPseudoClassStates()).contains(LATE);
        assertThat(icon(reader)).isEqualTo(Feather.ALERT_TRIANGLE);
        Snapshots.save(view, "editor-due-1024x640");

        select("Article 1");
        assertThat(reader.getText()).isEqualTo("due in 25 min");
        assertThat(reader.getPseudoClassStates()).doesNotContain(LATE);
        select("Article 2");
        assertThat(shown(reader)).isFalse();
    }

    @Test
    void aDueTimeMovedByASupervisorShowsOnTheCardAndInTheReaderAfterTheNextReload() throws Exception {
        long id = Fixtures.articles(dsl, "news", 1, 3, -60).get(0);
        Deadlines.due(session, dsl, id, Duration.ofMinutes(25));
        show();
        assertThat(due(card("Article 0")).getText()).isEqualTo("due in 25 min");

        Deadlines.due(session, dsl, id, Duration.ofHours(2).plusMinutes(10));
        fx(() -> {
            model.reload();
            return null;
        });
        tick();

        assertThat(due(card("Article 0")).getText()).isEqualTo("due in 2 h 10 min");
        assertThat(robot.lookup("#reader-due").queryAs(Label.class).getText()).isEqualTo("due in 2 h 10 min");

        Deadlines.due(session, dsl, id, Duration.ofMinutes(-1).minusSeconds(5));
        fx(() -> {
            model.reload();
            return null;
        });
        tick();
        assertThat(due(card("Article 0")).getText()).isEqualTo("late by 1 min");
        assertThat(due(card("Article 0")).getPseudoClassStates()).contains(LATE);
    }

    /** Without a reload: the list's own look every working interval (3 s) reads the due time with the lease. */
    @Test
    void aDueTimeMovedWhileTheArticleIsHeldShowsWithinTheListsNextLook() throws Exception {
        long id = Fixtures.articles(dsl, "news", 1, 3, -60).get(0);
        Deadlines.due(session, dsl, id, Duration.ofMinutes(25));
        show();
        assertThat(due(card("Article 0")).getText()).isEqualTo("due in 25 min");

        Deadlines.due(session, dsl, id, Duration.ofHours(2).plusMinutes(10));
        for (int second = 0; second < 4; second++) {
            tick();
        }
        assertThat(due(card("Article 0")).getText()).isEqualTo("due in 2 h 10 min");
        assertThat(robot.lookup("#reader-due").queryAs(Label.class).getText()).isEqualTo("due in 2 h 10 min");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"1024x640, 1024, 640, 1", "150 % on a 1440x900 screen, 960, 600, 1.5"})
    void withStagesTheDueTimeIsTheArticlesAndTheStageAndTheDueTimeAreWholeOnTheCardAndInTheReader(String what, double width,
            double height, double scale) throws Exception {
        session.newsroom().addEditor("cat", "Cat Lawson", Role.EDITOR, 3, List.of());
        EditorNewsroom.threeStageNews(session, "cat", true);
        List<Long> ids = Fixtures.articles(dsl, "news", 2, 3, -60);
        Deadlines.due(session, dsl, ids.get(0), Duration.ofMinutes(-72).minusSeconds(20));
        Deadlines.due(session, dsl, ids.get(1), Duration.ofMinutes(25));
        show(width, height, scale);

        ListCell<LeaseRow> card = card("Article 0");
        Label stageBadge = (Label) card.lookup("#stage-badge");
        assertThat(stageBadge.getText()).isEqualTo("Copy edit \u00b7 1 of 3");
        assertThat(due(card).getText()).isEqualTo("late by 1 h 12 min");
        Label reader = robot.lookup("#reader-due").queryAs(Label.class);
        assertThat(reader.getText()).isEqualTo("late by 1 h 12 min");
        Node list = robot.lookup("#articles").query();
        Node readerPane = robot.lookup("#reader").query();
        for (Label l : List.of(stageBadge, due(card), due(card("Article 1")), (Label) card.lookup(".countdown"))) {
            assertThat(fx(() -> whole(l) && inside(l, list))).as(l.getText() + " whole, and inside the list").isTrue();
        }
        for (Label l : List.of(reader, robot.lookup("#reader-stage").queryAs(Label.class))) {
            assertThat(fx(() -> whole(l) && inside(l, readerPane))).as(l.getText() + " whole, and inside the reader").isTrue();
        }
        if (scale != 1) {
            Snapshots.save(view, "editor-due-150-percent");
        }
    }

    private void select(String title) throws Exception {
        fx(() -> {
            model.selectedProperty().set(model.articles().stream().filter(r -> r.article().title().equals(title))
                    .findFirst().orElseThrow());
            return null;
        });
        tick();
    }

    private static <T> T fx(Callable<T> work) throws Exception {
        return WaitForAsyncUtils.asyncFx(work).get();
    }
}
