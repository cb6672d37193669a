package org.copydesk.ui.supervisor;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import javafx.scene.Node;
import javafx.scene.chart.BarChart;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.TableCell;
import javafx.stage.Stage;
import org.copydesk.lease.ServerClock;
import org.copydesk.review.DecisionHistory;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.Role;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.ManualTicker;
import org.copydesk.testing.TestDatabase;
import org.copydesk.ui.ScaledWindow;
import org.copydesk.ui.Snapshots;
import org.copydesk.ui.common.TaskExecutor;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/**
 * Queue health's "How the desk did" at 1024×640, against the real database: News decided two
 * articles today (10 and 30 minutes after arrival, one of the two late) and one three days ago (20
 * minutes, in time). The table says so per period, the chart has a bar per day with a decision in
 * time, the CSV has the numbers; the 7 days before today are read once, today at every refresh.
 */
@ExtendWith(DatabaseExtension.class)
class DeskReportPageTest {

    private final DSLContext dsl;
    private final ReviewSession services;
    private final ManualTicker ticker = new ManualTicker();
    private final FxRobot robot = new FxRobot();
    private DashboardViewModel model;
    private Stage stage;
    private Instant now;
    private ZoneOffset zone;
    private DecisionHistory news;

    DeskReportPageTest(TestDatabase db) {
        this.dsl = db.dsl();
        this.services = new ReviewSession(db.database(), ReviewSession.Options.defaults());
    }

    @BeforeEach
    void newsroom() {
        Fixtures.emptyNewsroom(dsl);
        services.newsroom().addDesk("news", "News", Duration.ofMinutes(30));
        services.newsroom().addEditor("ann", "Ann Kowalski", Role.EDITOR, 5, List.of("news"));
        now = dsl.select(ServerClock.now()).fetchOne(0, LocalDateTime.class).toInstant(ZoneOffset.UTC);
        // a supervisor whose clock says about noon now, so "today" and "3 days ago" are whole days away from midnight
        zone = ZoneOffset.ofHours(12 - now.atOffset(ZoneOffset.UTC).getHour());
        news = new DecisionHistory(dsl, "news");
        Instant decided = now.minusSeconds(600);
        news.approved(news.article(decided.minusSeconds(600), decided.plusSeconds(60)), null, decided);
        news.approved(news.article(decided.minusSeconds(1800), decided.minusSeconds(60)), null, decided);
        Instant earlier = now.minus(Duration.ofDays(3));
        news.approved(news.article(earlier.minusSeconds(1200), earlier.plusSeconds(60)), null, earlier);
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

    private void show(double width, double height, double scale) throws Exception {
        model = new DashboardViewModel(services, TaskExecutor.sameThread(), ticker,
                services.newsroom().addEditor("sue", "Sue Lindqvist", Role.SUPERVISOR, 5, List.of("news")),
                DashboardViewModel.Settings.defaults(), zone);
        FxToolkit.registerPrimaryStage();
        FxToolkit.setupFixture(() -> {
            DashboardView view = new DashboardView(model, (title, text) -> { });
            stage = ScaledWindow.show(view, width, height, scale);
            model.start();
            view.show(DashboardTab.HEALTH);
        });
        WaitForAsyncUtils.waitForFxEvents();
    }

    private boolean shown(String text) {
        return robot.lookup("#desk-report").lookup((Node n) -> n instanceof TableCell<?, ?> c && text.equals(c.getText())).tryQuery()
                .isPresent();
    }

    @Test
    void todayAndTheSevenDaysBeforeInATableAChartAndACsv(@TempDir Path folder) throws Exception {
        show();
        DeskReportViewModel report = model.health().deskReport();
        assertThat(report.rows()).singleElement().satisfies(r -> {
            assertThat(r.place()).isEqualTo("News");
            assertThat(r.today().decisions()).isEqualTo(2);
            assertThat(r.week().decisions()).isEqualTo(1);
        });
        FxToolkit.setupFixture(() -> robot.lookup("#health-scroll").queryAs(ScrollPane.class).setVvalue(1));
        WaitForAsyncUtils.waitForFxEvents();
        Snapshots.save(stage.getScene().getRoot(), "dashboard-how-the-desk-did-1024x640");
        assertThat(shown("50 % (1 of 2)")).as("today: one of the two with a due time in time").isTrue();
        assertThat(shown("10 min")).as("today's p50: the 1st of 600 and 1800 s").isTrue();
        assertThat(shown("30 min")).as("today's p90").isTrue();
        assertThat(shown("100 % (1 of 1)")).isTrue();
        assertThat(shown("20 min")).isTrue();
        BarChart<?, ?> chart = robot.lookup("#desk-report-chart").queryAs(BarChart.class);
        javafx.scene.chart.CategoryAxis days = (javafx.scene.chart.CategoryAxis) chart.getXAxis();
        assertThat(days.getTickMarks()).as("each day labelled, the 7 days before and today").hasSize(8)
                .allMatch(javafx.scene.chart.Axis.TickMark::isTextVisible).last()
                .satisfies(t -> assertThat(t.getValue()).isEqualTo("Today"));
        assertThat(chart.getData()).singleElement().satisfies(s -> assertThat(s.getData()).extracting(d -> ((Number) d.getYValue())
                .intValue()).as("100 % 3 days ago, 50 % today, no bar on days without a decision")
                .containsExactly(0, 0, 0, 0, 100, 0, 0, 50));

        Path csv = folder.resolve("report.csv");
        FxToolkit.setupFixture(() -> report.export(csv));
        List<String> lines = Files.readAllLines(csv, StandardCharsets.UTF_8);
        assertThat(lines.get(0)).startsWith("\uFEFFdesk,stage,today_decisions,today_with_due,today_in_time,today_p50_seconds");
        assertThat(lines.get(1)).isEqualTo("News,,2,2,1,600,1800,1,1,1,1200,1200");
    }

    /**
     * A desk with stages: a line per stage and, after them, the line of its final decisions timed through
     * the chain; the chart shows what went out in time, not each stage's steps. Drawn at 150 % on a
     * 1440×900 screen (960×600 logical pixels).
     */
    @Test
    void aDeskWithStagesHasALineThroughTheDeskAndTheChartCountsItsFinalDecisions(@TempDir Path folder) throws Exception {
        services.newsroom().addDesk("legal", "Legal", Duration.ofMinutes(30));
        DecisionHistory legal = new DecisionHistory(dsl, "legal");
        legal.stage("copy", 1);
        legal.stage("sign", 2);
        Instant arrived = now.minusSeconds(3600);
        long piece = legal.article(arrived, now.minusSeconds(1200)); // due 20 minutes ago
        legal.passedOn(piece, "copy", "sign", arrived.plusSeconds(600)); // a step, in time
        legal.approved(piece, "sign", now.minusSeconds(600)); // the end, 10 minutes late
        show(960, 600, 1.5);
        DeskReportViewModel report = model.health().deskReport();
        assertThat(report.rows()).extracting(DeskReportViewModel.ReportRow::place)
                .containsExactly("Legal \u00b7 Copy", "Legal \u00b7 Sign", "Legal \u00b7 Through the desk", "News");
        assertThat(report.rows().get(2).today()).satisfies(r -> {
            assertThat(r.decisions()).as("the approval at sign, not the step at copy").isEqualTo(1);
            assertThat(r.inTime()).isZero();
            assertThat(r.p50Seconds()).as("from arrival through both stages").isEqualTo(3000);
        });
        assertThat(shown("Legal \u00b7 Through the desk")).isTrue();
        BarChart<?, ?> chart = robot.lookup("#desk-report-chart").queryAs(BarChart.class);
        assertThat(chart.getData()).filteredOn(series -> series.getName().equals("Legal")).singleElement()
                .satisfies(series -> assertThat(((Number) series.getData().get(series.getData().size() - 1).getYValue()).intValue())
                        .as("today: the final decision was late, though the copy step was in time").isZero());
        FxToolkit.setupFixture(() -> robot.lookup("#health-scroll").queryAs(ScrollPane.class).setVvalue(1));
        WaitForAsyncUtils.waitForFxEvents();
        Snapshots.save(stage.getScene().getRoot(), "dashboard-how-the-desk-did-150-percent");
        Path csv = folder.resolve("report.csv");
        FxToolkit.setupFixture(() -> report.export(csv));
        assertThat(Files.readAllLines(csv, StandardCharsets.UTF_8)).contains("Legal,Through the desk,1,1,0,3000,3000,0,0,0,,");
    }

    /** Past days do not change: after the first look the 7 days before today are not read again, today is. */
    @Test
    void theDaysBeforeTodayAreReadOnceTodayAtEveryRefresh() throws Exception {
        show();
        Instant twoDaysAgo = now.minus(Duration.ofDays(2));
        news.approved(news.article(twoDaysAgo.minusSeconds(60), null), null, twoDaysAgo);
        news.approved(news.article(now.minusSeconds(120), null), null, now.minusSeconds(60));
        FxToolkit.setupFixture(() -> model.health().refresh());
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(model.health().deskReport().rows()).singleElement().satisfies(r -> {
            assertThat(r.today().decisions()).as("today read again").isEqualTo(3);
            assertThat(r.week().decisions()).as("the past days as first read").isEqualTo(1);
        });
    }
}
