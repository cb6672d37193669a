package org.copydesk.ui.supervisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.copydesk.db.schema.Tables.DECISION;

import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Locale;
import java.util.TimeZone;
import java.util.UUID;
import javafx.geometry.Bounds;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.chart.CategoryAxis;
import javafx.scene.chart.StackedBarChart;
import javafx.scene.chart.XYChart;
import javafx.scene.text.Text;
import javafx.stage.Stage;
import org.copydesk.db.DataSources;
import org.copydesk.db.Database;
import org.copydesk.lease.ServerClock;
import org.copydesk.review.DecisionRequest;
import org.copydesk.review.Editor;
import org.copydesk.review.HeldArticle;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.Verdict;
import org.copydesk.testing.DatabaseExtension;
import org.copydesk.testing.Fixtures;
import org.copydesk.testing.ManualTicker;
import org.copydesk.testing.TestDatabase;
import org.copydesk.ui.common.Formats;
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
 * The queue-health charts put each review under the hour it was finished in, on the supervisor's
 * clock, with the server, the database session and this PC in three different time zones (the
 * server at +09:30, the PC in New York, the dashboard in Kolkata at +05:30, whose hours start at
 * half past on UTC's clock). Checked on screen: the bar stands over the tick label of its hour.
 */
@ExtendWith(DatabaseExtension.class)
class HealthChartHoursTest {

    private static final ZoneId SUPERVISOR = ZoneId.of("Asia/Kolkata");

    private final TestDatabase db;
    private final DSLContext dsl;
    private final FxRobot robot = new FxRobot();
    private final TimeZone pcZone = TimeZone.getDefault();
    private String serverZone;
    private Database client;
    private ReviewSession services;
    private DashboardViewModel model;
    private Stage stage;

    HealthChartHoursTest(TestDatabase db) {
        this.db = db;
        this.dsl = db.dsl();
    }

    /** The server at +09:30, and a client that started in New York: its own pool, opened in that zone. */
    @BeforeEach
    void zones() {
        serverZone = dsl.fetchOne("select @@global.time_zone").get(0, String.class);
        dsl.execute("set global time_zone = '+09:30'");
        TimeZone.setDefault(TimeZone.getTimeZone("America/New_York"));
        client = Database.open(db.url(), db.endpoint().user(), db.endpoint().password().toCharArray(), null,
                DataSources.PoolSize.of(3), Database.SchemaAction.NONE, null);
        services = new ReviewSession(client, ReviewSession.Options.defaults());
    }

    @AfterEach
    void restore() throws Exception {
        if (stage != null) {
            FxToolkit.setupFixture(() -> {
                model.close();
                stage.close();
            });
        }
        client.close();
        dsl.execute("set global time_zone = ?", serverZone);
        TimeZone.setDefault(pcZone);
    }

    /**
     * Finishes a review, then moves its decision {@code minutesEarlier} back from when the
     * database wrote it (its own clock, UTC); the test's own session, opened while the server
     * is at +09:30, takes no part in the time.
     */
    private void finishReview(int minutesEarlier) {
        HeldArticle a = services.queue().claim("ann").articles().get(0);
        services.decisions().submit(new DecisionRequest(UUID.randomUUID(), a.id(), a.lease(), Verdict.APPROVE, ""));
        client.dsl().update(DECISION).set(DECISION.DECIDED_AT, ServerClock.plus(DECISION.DECIDED_AT, Duration.ofMinutes(-minutesEarlier)))
                .where(DECISION.ARTICLE_ID.eq(a.id())).execute();
    }

    @Test
    void eachReviewStandsUnderTheHourItWasFinishedInOnTheSupervisorsClock() throws Exception {
        Editor sue = NewsroomCast.on(services, client.dsl()).desks("news").ann("news").sue("news");
        Fixtures.articles(client.dsl(), "news", 3, 3, -600);
        finishReview(0);
        finishReview(0);
        finishReview(185);
        // the hours those reviews were finished in, on the supervisor's clock, read independently of the chart
        List<LocalDateTime> finished = client.dsl().select(DECISION.DECIDED_AT).from(DECISION).orderBy(DECISION.DECIDED_AT)
                .fetch(DECISION.DECIDED_AT);
        String olderHour = hourLabel(finished.get(0));
        String latestHour = hourLabel(finished.get(2));
        assertThat(olderHour).isNotEqualTo(latestHour);

        model = new DashboardViewModel(services, TaskExecutor.sameThread(), new ManualTicker(), sue,
                DashboardViewModel.Settings.defaults(), SUPERVISOR);
        FxToolkit.registerPrimaryStage();
        FxToolkit.setupFixture(() -> {
            DashboardView view = new DashboardView(model);
            stage = new Stage();
            Scene scene = new Scene(view, 1280, 800);
            Theme.LIGHT.apply(scene);
            stage.setScene(scene);
            stage.show();
            model.start();
            view.show(DashboardTab.HEALTH);
        });
        WaitForAsyncUtils.waitForFxEvents();

        HealthViewModel.HourlyChart chart = model.health().finishedChartProperty().get();
        List<Integer> news = chart.series().get("News");
        assertThat(news.get(chart.hours().indexOf(latestHour))).as("in %s", chart.hours()).isEqualTo(2);
        assertThat(news.get(chart.hours().indexOf(olderHour))).as("in %s", chart.hours()).isEqualTo(1);
        assertThat(news.stream().mapToInt(Integer::intValue).sum()).isEqualTo(3);

        @SuppressWarnings("unchecked")
        StackedBarChart<String, Number> bars = robot.lookup("#finished-chart").queryAs(StackedBarChart.class);
        assertThat(barCentreUnder(bars, latestHour)).isTrue();
        assertThat(barCentreUnder(bars, olderHour)).isTrue();
    }

    /** The hour a server time (UTC) falls in, as the chart labels it on the supervisor's clock. */
    private static String hourLabel(LocalDateTime utc) {
        LocalDateTime local = utc.atOffset(ZoneOffset.UTC).atZoneSameInstant(SUPERVISOR).toLocalDateTime();
        LocalDateTime startOfHour = local.withMinute(0).withSecond(0).withNano(0);
        return Formats.localClock(startOfHour.atZone(SUPERVISOR).withZoneSameInstant(ZoneOffset.UTC).toLocalDateTime(), SUPERVISOR,
                Locale.getDefault(Locale.Category.FORMAT));
    }

    /** Whether the non-empty bar of {@code hour} is drawn over that hour's tick label (and not its neighbour's). */
    private boolean barCentreUnder(StackedBarChart<String, Number> chart, String hour) {
        Node bar = chart.getData().stream().flatMap(s -> s.getData().stream())
                .filter(d -> d.getXValue().equals(hour) && d.getYValue().intValue() > 0).map(XYChart.Data::getNode)
                .findFirst().orElseThrow();
        CategoryAxis axis = (CategoryAxis) chart.getXAxis();
        Text label = axis.getChildrenUnmodifiable().stream().filter(n -> n instanceof Text t && t.getText().equals(hour))
                .map(Text.class::cast).filter(Node::isVisible).findFirst().orElseThrow();
        Bounds b = bar.localToScene(bar.getBoundsInLocal());
        Bounds l = label.localToScene(label.getBoundsInLocal());
        double spacing = axis.getCategorySpacing();
        return Math.abs(b.getCenterX() - l.getCenterX()) < spacing / 2;
    }
}
