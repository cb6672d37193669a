package org.copydesk.ui.supervisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.DEADLINE_FORECAST_TURN;
import static org.copydesk.db.schema.Tables.OUTCOME_EVENT;
import static org.copydesk.db.schema.Tables.SWEEP_TURN;

import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.Labeled;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableRow;
import javafx.stage.Stage;
import org.copydesk.review.DeadlineForecast.DueArticle;
import org.copydesk.review.ForecastDesk;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.Role;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.FxAwait;
import org.copydesk.testing.ManualTicker;
import org.copydesk.testing.TestDatabase;
import org.copydesk.ui.ScaledWindow;
import org.copydesk.ui.Snapshots;
import org.copydesk.ui.common.Notice;
import org.copydesk.ui.common.TaskExecutor;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The dashboard's Deadlines tab at 1024×640, against the real database: News decided 12 articles
 * in the last hour (300 s an article); one article is late, the next is due before its turn comes
 * (at risk), the third in time. The line says so, the rows say so in words with a mark, a
 * supervisor extends the deadline of the one at risk with a reason and it is in time; the sweep's
 * deadline_at_risk is a warning notice and a desktop alert.
 */
@ExtendWith(DatabaseExtension.class)
class DeadlinesPageTest {

    private final DSLContext dsl;
    private final ReviewSession services;
    private final ManualTicker ticker = new ManualTicker();
    private final FxRobot robot = new FxRobot();
    private final List<String> alerts = new ArrayList<>();
    private DashboardViewModel model;
    private Stage stage;
    private long late;
    private long atRisk;
    private long inTime;

    DeadlinesPageTest(TestDatabase db) {
        this.dsl = db.dsl();
        this.services = new ReviewSession(db.database(), ReviewSession.Options.defaults());
    }

    @BeforeEach
    void newsroom() {
        dsl.deleteFrom(OUTCOME_EVENT).execute();
        dsl.deleteFrom(DEADLINE_FORECAST_TURN).execute();
        Fixtures.emptyNewsroom(dsl);
        services.newsroom().addDesk("news", "News", Duration.ofMinutes(30));
        services.newsroom().addEditor("ann", "Ann Kowalski", Role.EDITOR, 5, List.of("news"));
        ForecastDesk news = new ForecastDesk(dsl, "news");
        news.decisions(null, 12, 10);
        news.seen("ann", 30);
        late = news.article(3, null, -60);
        atRisk = news.article(3, null, 500);
        inTime = news.article(3, null, 1000);
        dsl.update(ARTICLE).set(ARTICLE.TITLE, "Budget vote").where(ARTICLE.ID.eq(atRisk)).execute();
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
    }

    private void show() throws Exception {
        show(1024, 640, 1);
    }

    /** The dashboard {@code width}×{@code height} logical pixels drawn at {@code scale}, on the Deadlines tab. */
    private void show(double width, double height, double scale) throws Exception {
        model = new DashboardViewModel(services, TaskExecutor.sameThread(), ticker,
                services.newsroom().addEditor("sue", "Sue Lindqvist", Role.SUPERVISOR, 5, List.of("news")),
                DashboardViewModel.Settings.defaults(), ZoneId.of("UTC"));
        FxToolkit.registerPrimaryStage();
        FxToolkit.setupFixture(() -> {
            DashboardView view = new DashboardView(model, (title, text) -> alerts.add(text));
            model.deadlines().onAttention(alerts::add); // as if the dashboard were behind another window
            stage = ScaledWindow.show(view, width, height, scale);
            model.start();
            view.show(DashboardTab.DEADLINES);
        });
        WaitForAsyncUtils.waitForFxEvents();
    }

    private static void waitFor(BooleanSupplier condition) {
        FxAwait.waitFor(10, condition);
    }

    private String text(String id) {
        return robot.lookup(id).queryAs(Labeled.class).getText();
    }

    private DueArticle row(long id) {
        return model.deadlines().items().stream().filter(a -> a.id() == id).findFirst().orElseThrow();
    }

    private Node cell(String text) {
        return robot.lookup("#deadlines").lookup((Node n) -> n instanceof TableCell<?, ?> c && text.equals(c.getText())).query();
    }

    @Test
    void theLineAndTheRowsSayWhatWillBeMissedAndExtendingTheDeadlineWithAReasonPutsItInTime() throws Exception {
        show();
        waitFor(() -> !text("#deadlines-line").isEmpty());
        assertThat(text("#deadlines-line")).matches("1 of the 2 due by \\d\\d?:\\d\\d( [AP]M)? will miss at the current pace "
                + "\\(1 editor, 12 an hour\\)\\. 1 late already\\.");
        assertThat(text("#deadlines-pace")).isEqualTo("News: 12 an hour, 1 editor");
        assertThat(model.deadlines().items()).extracting(DueArticle::id).containsExactly(late, atRisk, inTime);
        assertThat(cell("Late")).isNotNull();
        assertThat(((TableCell<?, ?>) cell("At risk")).getGraphic()).as("marked, not only coloured").isNotNull();
        assertThat(cell("In time")).isNotNull();
        @SuppressWarnings("unchecked")
        TableRow<DueArticle> riskRow = (TableRow<DueArticle>) cell("At risk").getParent();
        assertThat(riskRow.getStyleClass()).contains("deadline-at-risk");
        assertThat(model.deadlines().leftOf(row(late))).startsWith("late by ");

        robot.clickOn(cell("Budget vote"));
        Button extend = robot.lookup("#deadlines-extend").queryAs(Button.class);
        String later = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm").format(LocalDateTime.now(ZoneOffset.UTC).plusHours(2));
        robot.clickOn("#deadlines-new-due").write(later);
        assertThat(extend.isDisabled()).as("no new deadline without a reason").isTrue();
        robot.clickOn("#deadlines-reason").write("the print edition moved");
        Snapshots.save(stage.getScene().getRoot(), "dashboard-deadlines-1024x640");
        robot.clickOn(extend);
        waitFor(() -> model.deadlines().items().stream().anyMatch(a -> a.id() == atRisk && !a.atRisk()));
        assertThat(dsl.fetchValue(ARTICLE.DUE_AT, ARTICLE.ID.eq(atRisk))).isEqualTo(LocalDateTime.parse(later.replace(' ', 'T')));
        assertThat(model.notices()).extracting(Notice::text).anyMatch(t -> t.startsWith("\u201cBudget vote\u201d is now due "));
        assertThat(text("#deadlines-line")).startsWith("0 of the 2 due by ");
    }

    /** At 150 % on a 1440×900 screen (960×600 logical pixels) the line is whole and every act is in reach (scrolled to). */
    @Test
    void atOneHundredAndFiftyPercentTheLineIsWholeAndTheActsAreInReach() throws Exception {
        show(960, 600, 1.5);
        waitFor(() -> !text("#deadlines-line").isEmpty());
        Labeled line = robot.lookup("#deadlines-line").queryAs(Labeled.class);
        javafx.scene.text.Text shown = (javafx.scene.text.Text) line.lookup(".text");
        assertThat(shown == null || !shown.getText().endsWith("\u2026")).as("the line is not cut").isTrue();
        // the acts scroll when the window is short (as the Queue's do): scrolled down, the last is in the window
        Node panel = robot.lookup("#deadlines-actions").query();
        javafx.scene.control.ScrollPane side = (javafx.scene.control.ScrollPane) robot.lookup(".scroll-pane")
                .match((Node n) -> n instanceof javafx.scene.control.ScrollPane p && p.getContent() == panel).query();
        robot.interact(() -> side.setVvalue(side.getVmax()));
        WaitForAsyncUtils.waitForFxEvents();
        for (String id : List.of("#deadlines-give", "#deadlines-extend", "#deadlines-new-due")) {
            Node n = robot.lookup(id).query();
            javafx.geometry.Bounds b = n.localToScene(n.getBoundsInLocal());
            assertThat(b.getMaxY()).as("%s within the window", id).isLessThanOrEqualTo(600 * 1.5 + 1);
        }
        Snapshots.save(stage.getScene().getRoot(), "dashboard-deadlines-150-percent");
    }

    @Test
    void anArticleTheSweepFindsAtRiskIsAWarningAndADesktopAlertOnce() throws Exception {
        show();
        robot.interact(() -> ticker.advance(DeadlinesViewModel.WATCH_INTERVAL)); // the first look: nothing told yet
        dsl.update(SWEEP_TURN).set(SWEEP_TURN.DUE_AT, LocalDateTime.of(2000, 1, 1, 0, 0)).execute();
        dsl.fetchMany("CALL take_sweep_turn(5000)");

        robot.interact(() -> ticker.advance(DeadlinesViewModel.WATCH_INTERVAL));
        waitFor(() -> !alerts.isEmpty());
        assertThat(alerts).singleElement().satisfies(a -> assertThat(a).matches(
                "\u201cBudget vote\u201d \\(News, due \\d\\d?:\\d\\d( [AP]M)?\\) will miss its deadline at the current pace\\."));
        assertThat(model.notices()).filteredOn(n -> n.kind() == Notice.Kind.WARNING).extracting(Notice::text).contains(alerts.get(0));

        robot.interact(() -> ticker.advance(DeadlinesViewModel.WATCH_INTERVAL.multipliedBy(3)));
        assertThat(alerts).as("told once").hasSize(1);
    }
}
