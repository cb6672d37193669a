package org.copydesk.ui.supervisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.db.schema.Tables.ARTICLE;

import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import javafx.geometry.Bounds;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.Control;
import javafx.scene.control.Label;
import javafx.scene.control.TabPane;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.input.KeyCode;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The dashboard's screen (headless, Monocle): rows hold still under the pointer,
 * several leases are selected with the mouse and acted on together after a question, notices
 * cover no control, every icon-only button has a name, and Tab moves a focus one can see.
 */
@ExtendWith(DatabaseExtension.class)
class DashboardViewTest {

    private final DSLContext dsl;
    private final ReviewSession services;
    private final ManualTicker ticker = new ManualTicker();
    private final FxRobot robot = new FxRobot();
    private DashboardViewModel model;
    private DashboardView view;
    private Stage stage;

    DashboardViewTest(TestDatabase db) {
        this.dsl = db.dsl();
        this.services = new ReviewSession(db.database(), ReviewSession.Options.defaults());
    }

    @BeforeEach
    void show() throws Exception {
        Fixtures.emptyNewsroom(dsl);
        services.newsroom().addDesk("news", "News", Duration.ofMinutes(30));
        services.newsroom().addEditor("ann", "Ann Kowalski", Role.EDITOR, 3, List.of("news"));
        services.newsroom().addEditor("dan", "Dan Ito", Role.EDITOR, 1, List.of("news"));
        Editor sue = services.newsroom().addEditor("sue", "Sue Lindqvist", Role.SUPERVISOR, 5, List.of("news"));
        Fixtures.articles(dsl, "news", 6, 3, -60);
        services.queue().claim("ann");
        model = new DashboardViewModel(services, TaskExecutor.sameThread(), ticker, sue, DashboardViewModel.Settings.defaults(),
                ZoneId.of("UTC"));
        FxToolkit.registerPrimaryStage();
        FxToolkit.setupFixture(() -> {
            view = new DashboardView(model);
            stage = new Stage();
            Scene scene = new Scene(view, 1280, 800);
            Theme.LIGHT.apply(scene);
            stage.setScene(scene);
            stage.show();
            model.start();
        });
        WaitForAsyncUtils.waitForFxEvents();
    }

    @AfterEach
    void close() throws Exception {
        FxToolkit.setupFixture(() -> {
            model.close();
            stage.close();
        });
    }

    @SuppressWarnings("unchecked")
    private TableView<HolderRow> holders() {
        return robot.lookup("#holders").queryAs(TableView.class);
    }

    private Node cell(String text) {
        return robot.lookup("#holders").lookup((Node n) -> n instanceof TableCell<?, ?> c && text.equals(c.getText())).query();
    }

    private void tick(Duration by) {
        robot.interact(() -> ticker.advance(by));
    }

    @Test
    void rowsHoldStillUnderThePointerSayWhatWaitsAndMoveWhenThePointerLeaves() {
        assertThat(holders().getItems()).hasSize(3);
        robot.moveTo(cell("Article 1"));
        services.queue().claim("dan");

        tick(Duration.ofSeconds(2));

        assertThat(holders().getItems()).extracting(HolderRow::title).containsExactly("Article 0", "Article 1", "Article 2");
        Label held = robot.lookup("#held-changes").queryAs(Label.class);
        assertThat(held.isVisible() && held.getParent().isVisible()).isTrue();
        assertThat(held.getText()).isEqualTo("1 change waits while you work here: 1 new.");
        // seen at 1360 px in a working day: the waiting changes and the lease count were cut short
        robot.interact(() -> stage.setWidth(1100));
        WaitForAsyncUtils.waitForFxEvents();
        for (String id : List.of("#held-changes", "#holders-summary")) {
            Label label = robot.lookup(id).queryAs(Label.class);
            assertThat(((javafx.scene.text.Text) label.lookup(".text")).getText()).as(id).isEqualTo(label.getText());
        }
        robot.interact(() -> stage.setWidth(1280));

        robot.moveTo("#dashboard-refresh");
        waitFor(() -> holders().getItems().size() == 4);
        assertThat(held.getParent().isVisible()).isFalse();
    }

    @Test
    void severalLeasesSelectedWithTheMouseAreTakenBackTogetherAfterAQuestion() {
        robot.clickOn(cell("Article 0"));
        robot.press(KeyCode.CONTROL).clickOn(cell("Article 2")).release(KeyCode.CONTROL);
        waitFor(() -> model.holders().selection().size() == 2);
        assertThat(holders().getSelectionModel().getSelectedItems()).extracting(HolderRow::title)
                .containsExactlyInAnyOrder("Article 0", "Article 2");
        assertThat(robot.lookup("#selected-lease").queryAs(Label.class).getText()).isEqualTo("2 articles, held by Ann Kowalski");

        robot.clickOn("#reason").write("Legal reads them first");
        robot.clickOn("#force-release");
        waitFor(() -> robot.lookup("#action-question").queryAs(Label.class).getText().startsWith("Take 2 articles back"));
        assertThat(dsl.fetchValue(ARTICLE.LOCKED_BY, ARTICLE.TITLE.eq("Article 0"))).isEqualTo("ann");
        robot.clickOn("#confirm-action");

        waitFor(() -> dsl.fetchValue(ARTICLE.LOCKED_BY, ARTICLE.TITLE.eq("Article 2")) == null);
        assertThat(dsl.fetchValue(ARTICLE.LOCKED_BY, ARTICLE.TITLE.eq("Article 0"))).isNull();
        waitFor(() -> holders().getItems().size() == 1);
        assertThat(robot.lookup("#action-outcomes").lookup((Node n) -> n instanceof Label l
                && l.getText().equals("Took \u201cArticle 2\u201d back from Ann Kowalski.")).tryQuery()).isPresent();
    }

    @Test
    void aSelectedRowStaysSelectedWhenItMovesInTheTable() {
        robot.clickOn("#col-time-left"); // rows move with time left only once it is chosen
        waitFor(() -> model.holders().sortKeyProperty().get() == HolderSort.TIME_LEFT);
        robot.clickOn(cell("Article 0"));
        robot.moveTo("#dashboard-refresh");
        services.queue().renew("ann", services.queue().held("ann").stream().filter(h -> h.title().equals("Article 0")).toList());

        tick(Duration.ofSeconds(2));
        waitFor(() -> holders().getItems().get(2).title().equals("Article 0"));

        assertThat(holders().getSelectionModel().getSelectedItems()).extracting(HolderRow::title).containsExactly("Article 0");
        assertThat(holders().getSelectionModel().getSelectedIndex()).isEqualTo(2);
    }

    @Test
    void theArrowKeysOnASelectionHoldTheRowsTooAndAClickLetsThemGoWhenThePointerLeaves() {
        robot.clickOn(cell("Article 0"));
        robot.type(KeyCode.DOWN); // Article 1, with the keyboard
        robot.moveTo("#dashboard-refresh");
        waitFor(() -> model.holders().selection().size() == 1 && model.holders().selection().get(0).title().equals("Article 1"));
        services.queue().claim("dan");

        tick(Duration.ofSeconds(2));
        assertThat(holders().getItems()).as("the keyboard works on the rows: they hold").hasSize(3);

        robot.clickOn(cell("Article 1"));
        robot.moveTo("#dashboard-refresh");
        waitFor(() -> holders().getItems().size() == 4);
        assertThat(holders().getSelectionModel().getSelectedItem().title()).isEqualTo("Article 1");
    }

    @Test
    void noticesTakeTheirOwnPlaceAndEveryIconOnlyButtonHasAName() {
        robot.clickOn(cell("Article 1"));
        robot.clickOn("#extend-15");
        waitFor(() -> robot.lookup("#notices .notice").tryQuery().isPresent());
        // once laid out (a pulse after the notice came), the page and the notices share no area
        waitFor(() -> !overlap(bounds(robot.lookup("#dashboard-tabs").query()), bounds(robot.lookup("#notices").query())));

        Bounds notices = bounds(robot.lookup("#notices").query());
        assertThat(notices.getHeight()).isPositive();
        for (Node control : robot.lookup("#dashboard-tabs .button, #dashboard-tabs .text-input, #dashboard-tabs .table-view")
                .queryAll()) {
            if (control.isVisible()) {
                assertThat(overlap(bounds(control), notices)).as("the notice covers %s", control.getId()).isFalse();
            }
        }
        Bounds tabs = bounds(robot.lookup("#dashboard-tabs").query());
        assertThat(overlap(tabs, notices)).as("tabs %s, notices %s", tabs, notices).isFalse();

        List<String> unnamed = new ArrayList<>();
        for (DashboardTab tab : DashboardTab.values()) {
            robot.interact(() -> view.show(tab));
            for (Button b : robot.lookup(".button").queryAllAs(Button.class)) {
                if ((b.getText() == null || b.getText().isBlank())
                        && (b.getAccessibleText() == null || b.getAccessibleText().isBlank())) {
                    unnamed.add(tab + ": " + b.getId() + " " + b.getStyleClass());
                }
            }
        }
        assertThat(unnamed).as("icon-only buttons without an accessible name").isEmpty();
    }

    @Test
    void theSearchFieldsClearButtonBringsEveryLeaseBack() {
        robot.clickOn("#holder-search").write("no such thing");
        waitFor(() -> holders().getItems().isEmpty());
        Node clear = robot.lookup("#holder-search").lookup(".clear-button").query();
        waitFor(clear::isVisible);
        robot.clickOn(clear);
        waitFor(() -> holders().getItems().size() == 3);
        assertThat(robot.lookup("#holder-search").queryAs(TextField.class).getText()).isEmpty();
    }

    /**
     * ControlsFX's clearable field brings a stylesheet written for Modena, whose colour names the
     * AtlantaFX theme does not define: unstyled, it drew a frame and text of its own (and logged CSS
     * warnings). It looks like every other text field of the window.
     */
    @Test
    void theSearchFieldLooksLikeEveryOtherTextField() {
        TextField search = robot.lookup("#holder-search").queryAs(TextField.class);
        TextField reason = robot.lookup("#reason").queryAs(TextField.class);
        assertThat(search.isFocused() || reason.isFocused()).isFalse();
        assertThat(search.getBackground().getFills()).as("frame and fill")
                .containsExactlyElementsOf(reason.getBackground().getFills());
        javafx.scene.text.Text searchText = (javafx.scene.text.Text) search.lookup(".text");
        javafx.scene.text.Text reasonText = (javafx.scene.text.Text) reason.lookup(".text");
        assertThat(searchText.getFill()).as("text colour").isEqualTo(reasonText.getFill());
    }

    @Test
    void tabMovesAFocusOneCanSee() {
        robot.clickOn("#holder-search");
        List<String> invisible = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            robot.type(KeyCode.TAB);
            Node focused = stage.getScene().getFocusOwner();
            assertThat(focused).as("after %d Tab presses something has the focus", i + 1).isNotNull();
            if (focused instanceof TabPane || !(focused instanceof Control control)) {
                continue; // the tab header draws the ring, not the pane
            }
            try { // the ring comes with the next CSS pass, a pulse after the focus moved
                waitFor(() -> control.isVisible() && control.getBorder() != null && !control.getBorder().getStrokes().isEmpty());
            } catch (AssertionError e) {
                invisible.add(control.getClass().getSimpleName() + " " + control.getId());
            }
        }
        assertThat(invisible).as("controls that took the focus without showing it").isEmpty();
        Control search = robot.lookup("#holder-search").queryAs(Control.class);
        assertThat(search.isFocused()).isFalse();
        assertThat(search.getBorder() == null || search.getBorder().getStrokes().isEmpty())
                .as("the ring is the focus's, not the control's own frame").isTrue();
    }

    /** Whether two areas share more than an edge. */
    private static boolean overlap(Bounds a, Bounds b) {
        return Math.min(a.getMaxX(), b.getMaxX()) - Math.max(a.getMinX(), b.getMinX()) > 0.5
                && Math.min(a.getMaxY(), b.getMaxY()) - Math.max(a.getMinY(), b.getMinY()) > 0.5;
    }

    private static Bounds bounds(Node n) {
        return n.localToScene(n.getLayoutBounds()); // without shadows, which may fall on a neighbour
    }

    private static void waitFor(BooleanSupplier condition) {
        org.copydesk.testing.FxAwait.waitFor(10, condition);
    }

}
