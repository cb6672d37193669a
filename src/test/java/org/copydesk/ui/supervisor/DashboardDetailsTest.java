package org.copydesk.ui.supervisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.IMPORT_QUARANTINE;

import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import java.util.function.BooleanSupplier;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.layout.BackgroundFill;
import javafx.scene.paint.Color;
import javafx.scene.text.Text;
import javafx.stage.Stage;
import org.copydesk.db.schema.enums.ArticleStatus;
import org.copydesk.review.Desk;
import org.copydesk.review.Editor;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.Role;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.FxAwait;
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
 * What a working day found on the dashboard's screen (headless, Monocle): long names read whole
 * in the by-editor list, several selected rows stand out in both themes, the import's file name
 * is cut in the middle and said whole in a tooltip, and a refused row is corrected in a form of
 * its fields.
 */
@ExtendWith(DatabaseExtension.class)
class DashboardDetailsTest {

    private static final String LONG_NAME = "Annabelle Kowalski-Lindqvist Okafor";
    private static final String SOURCE = "/srv/copydesk/incoming/wire/2026/11/23/reuters-world-service-feed-0600.jsonl";

    private final DSLContext dsl;
    private final ReviewSession services;
    private final ManualTicker ticker = new ManualTicker();
    private final FxRobot robot = new FxRobot();
    private DashboardViewModel model;
    private DashboardView view;
    private Stage stage;
    private Scene scene;

    DashboardDetailsTest(TestDatabase db) {
        this.dsl = db.dsl();
        this.services = new ReviewSession(db.database(), ReviewSession.Options.defaults());
    }

    @BeforeEach
    void show() throws Exception {
        Fixtures.emptyNewsroom(dsl);
        services.newsroom().addDesk("news", "News", Duration.ofMinutes(30));
        services.newsroom().addEditor("ann", LONG_NAME, Role.EDITOR, 3, List.of("news"));
        services.newsroom().addEditor("dan", "Dan Ito", Role.EDITOR, 1, List.of("news"));
        Editor sue = services.newsroom().addEditor("sue", "Sue Lindqvist", Role.SUPERVISOR, 5, List.of("news"));
        Fixtures.articles(dsl, "news", 6, 3, -60);
        services.queue().claim("ann");
        services.queue().claim("dan");
        dsl.insertInto(IMPORT_QUARANTINE, IMPORT_QUARANTINE.IMPORT_ID, IMPORT_QUARANTINE.SOURCE_NAME,
                        IMPORT_QUARANTINE.LINE_NUMBER, IMPORT_QUARANTINE.RAW_TEXT, IMPORT_QUARANTINE.REASON)
                .values("imp-1", SOURCE, 7L, "{\"external_id\": \"wire-88121\", \"desk\": \"nwes\", \"title\": \"Port strike ends\", "
                        + "\"body\": \"Dockers return on Monday.\"}", "unknown desk 'nwes'")
                .execute();
        model = new DashboardViewModel(services, TaskExecutor.sameThread(), ticker, sue, DashboardViewModel.Settings.defaults(),
                ZoneId.of("UTC"));
        FxToolkit.registerPrimaryStage();
        FxToolkit.setupFixture(() -> {
            view = new DashboardView(model);
            stage = new Stage();
            scene = new Scene(view, 1280, 800);
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
            Theme.LIGHT.apply(scene);
        });
    }

    private static void waitFor(BooleanSupplier condition) {
        FxAwait.waitFor(10, condition);
    }

    private Node cell(String text) {
        return robot.lookup("#holders").lookup((Node n) -> n instanceof TableCell<?, ?> c && text.equals(c.getText())).query();
    }

    /** What a label or cell really draws: its text node's text (with "…" where it was cut). */
    private static String drawn(Node labeled) {
        return ((Text) labeled.lookup(".text")).getText();
    }

    @Test
    void theByEditorListShowsLongNamesWhole() {
        robot.interact(() -> model.holders().groupingProperty().set(Grouping.EDITOR));
        waitFor(() -> robot.lookup("#groups .list-cell").queryAll().stream().anyMatch(c -> c instanceof ListCell<?> l
                && l.getItem() != null));
        Label name = robot.lookup("#groups").lookup((Node n) -> n instanceof Label l && LONG_NAME.equals(l.getText())).queryAs(Label.class);
        assertThat(drawn(name)).as("the name, not cut short").isEqualTo(LONG_NAME);
        ListCell<?> cell = (ListCell<?>) robot.lookup("#groups .list-cell").queryAll().stream()
                .filter(c -> c instanceof ListCell<?> l && l.getItem() != null && l.getItem().toString().startsWith(LONG_NAME))
                .findFirst().orElseThrow();
        assertThat(cell.getTooltip().getText()).isEqualTo(LONG_NAME + " (3)");
    }

    @Test
    void severalSelectedRowsStandOutInBothThemes() {
        robot.clickOn(cell("Article 0"));
        robot.press(javafx.scene.input.KeyCode.CONTROL).clickOn(cell("Article 2")).release(javafx.scene.input.KeyCode.CONTROL);
        robot.moveTo("#dashboard-refresh"); // the table loses the pointer; the selection must still show
        waitFor(() -> model.holders().selection().size() == 2);

        for (Theme theme : Theme.values()) {
            robot.interact(() -> theme.apply(scene));
            WaitForAsyncUtils.waitForFxEvents();
            Color bar = Color.web(theme == Theme.LIGHT ? "#0969da" : "#1f6feb"); // Primer's accent-emphasis
            List<TableRow<?>> selected = new java.util.ArrayList<>();
            for (Node n : robot.lookup("#holders .table-row-cell").queryAll()) {
                if (n instanceof TableRow<?> r && r.getItem() != null && r.isSelected()) {
                    selected.add(r);
                }
            }
            assertThat(selected).hasSize(2);
            for (TableRow<?> row : selected) {
                waitFor(() -> row.getBackground() != null && row.getBackground().getFills().stream()
                        .map(BackgroundFill::getFill).anyMatch(bar::equals));
                BackgroundFill edge = row.getBackground().getFills().stream().filter(f -> bar.equals(f.getFill()))
                        .findFirst().orElseThrow();
                BackgroundFill tint = row.getBackground().getFills().get(row.getBackground().getFills().size() - 1);
                assertThat(tint.getInsets().getLeft() - edge.getInsets().getLeft()).as("a bar along the left edge")
                        .isGreaterThanOrEqualTo(3);
            }
            TableRow<?> unselected = robot.lookup("#holders .table-row-cell").queryAll().stream().map(n -> (TableRow<?>) n)
                    .filter(r -> r.getItem() != null && !r.isSelected()).findFirst().orElseThrow();
            assertThat(unselected.getBackground().getFills()).extracting(BackgroundFill::getFill).doesNotContain(bar);
        }
    }

    @Test
    void theSourceColumnCutsTheFileNameInTheMiddleAndTheTooltipSaysItWhole() {
        robot.interact(() -> view.show(DashboardTab.QUARANTINE));
        String whole = SOURCE + ":7";
        TableCell<?, ?> source = (TableCell<?, ?>) robot.lookup("#import-rejects").lookup((Node n) -> n instanceof TableCell<?, ?> c
                && whole.equals(c.getText())).query();
        String shown = drawn(source);
        assertThat(shown).as("cut in the middle: the folder's start and the file's name both show").startsWith("/srv")
                .endsWith("0600.jsonl:7").contains("\u2026");
        assertThat(source.getTooltip().getText()).isEqualTo(whole);
    }

    @Test
    @SuppressWarnings("unchecked")
    void aRefusedRowIsCorrectedInAFormOfItsFields() {
        robot.interact(() -> view.show(DashboardTab.QUARANTINE));
        robot.clickOn(robot.lookup("#import-rejects").lookup((Node n) -> n instanceof TableCell<?, ?> c
                && "unknown desk 'nwes'".equals(c.getText())).<Node>query());
        waitFor(() -> "Port strike ends".equals(robot.lookup("#row-title").queryAs(TextField.class).getText()));
        assertThat(robot.lookup("#row-external-id").queryAs(TextField.class).getText()).isEqualTo("wire-88121");
        assertThat(robot.lookup("#row-desk-was").queryAs(Label.class).getText())
                .isEqualTo("The row said \u201cnwes\u201d, which is no desk.");
        assertThat(robot.lookup("#corrected-row").tryQuery()).as("no raw JSON to edit").isEmpty();

        ComboBox<Desk> desk = robot.lookup("#row-desk").queryAs(ComboBox.class);
        // choosing from a combo's popup window is unreliable headless; pick the item as the combo would
        robot.interact(() -> desk.setValue(desk.getItems().get(0)));
        robot.clickOn("#row-title").type(javafx.scene.input.KeyCode.END).write(" after nine days");
        robot.clickOn("#requeue-row");

        waitFor(() -> dsl.fetchExists(ARTICLE, ARTICLE.EXTERNAL_ID.eq("wire-88121")));
        assertThat(dsl.fetchValue(ARTICLE.TITLE, ARTICLE.EXTERNAL_ID.eq("wire-88121"))).isEqualTo("Port strike ends after nine days");
        assertThat(dsl.fetchValue(ARTICLE.STATUS, ARTICLE.EXTERNAL_ID.eq("wire-88121"))).isEqualTo(ArticleStatus.queued);
        waitFor(() -> robot.lookup("#import-rejects").queryAs(TableView.class).getItems().isEmpty());
    }
}
