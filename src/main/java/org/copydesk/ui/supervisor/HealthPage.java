package org.copydesk.ui.supervisor;

import static org.copydesk.ui.supervisor.Tables.muted;
import static org.copydesk.ui.supervisor.Tables.numberColumn;
import static org.copydesk.ui.supervisor.Tables.textColumn;

import atlantafx.base.theme.Styles;
import java.util.List;
import java.util.Map;
import javafx.collections.FXCollections;
import javafx.geometry.Side;
import javafx.scene.chart.CategoryAxis;
import javafx.scene.chart.NumberAxis;
import javafx.scene.chart.StackedBarChart;
import javafx.scene.chart.XYChart;
import javafx.scene.control.Label;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.TableView;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import org.copydesk.ui.common.Messages;

/** The "Queue health" page: counts per desk, two hourly charts and how the desk did. Binds to {@link HealthViewModel}. */
final class HealthPage extends VBox {

    private final StackedBarChart<String, Number> finishedChart = new StackedBarChart<>(new CategoryAxis(), new NumberAxis());
    private final StackedBarChart<String, Number> expiredChart = new StackedBarChart<>(new CategoryAxis(), new NumberAxis());

    HealthPage(HealthViewModel model) {
        TableView<HealthViewModel.DeskRow> desks = new TableView<>(model.deskRows());
        desks.setId("desk-health");
        desks.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        desks.getColumns().setAll(List.of(
                textColumn(Messages.text("dashboard.health.desk.column"), 140, HealthViewModel.DeskRow::name),
                numberColumn(Messages.text("dashboard.health.waitingNow.column"), HealthViewModel.DeskRow::waitingNow),
                numberColumn(Messages.text("dashboard.health.scheduled.column"), HealthViewModel.DeskRow::scheduled),
                numberColumn(Messages.text("dashboard.health.inReview.column"), HealthViewModel.DeskRow::inReview),
                numberColumn(Messages.text("dashboard.health.sentBack.column"), HealthViewModel.DeskRow::sentBack),
                numberColumn(Messages.text("dashboard.health.quarantined.column"), HealthViewModel.DeskRow::quarantined),
                Tables.explained(
                        numberColumn(Messages.text("dashboard.health.finishedToday.column"), HealthViewModel.DeskRow::finishedToday),
                        Messages.text("dashboard.finishedToday.means")),
                textColumn(Messages.text("dashboard.health.oldestWaiting.column"), 120, HealthViewModel.DeskRow::oldestWaiting)));
        desks.setPlaceholder(muted(Messages.text("dashboard.health.empty")));
        desks.setPrefHeight(236);
        desks.setMinHeight(236);

        finishedChart.setId("finished-chart");
        finishedChart.setTitle(Messages.text("dashboard.health.finishedChart.title"));
        expiredChart.setId("expired-chart");
        expiredChart.setTitle(Messages.text("dashboard.health.expiredChart.title"));
        for (XYChart<String, Number> chart : List.<XYChart<String, Number>>of(finishedChart, expiredChart)) {
            chart.setAnimated(false);
            chart.setLegendSide(Side.BOTTOM);
            ((CategoryAxis) chart.getXAxis()).setTickLabelRotation(-90);
            ((NumberAxis) chart.getYAxis()).setMinorTickVisible(false);
            ((NumberAxis) chart.getYAxis()).setForceZeroInRange(true);
            // counts: label whole numbers only (auto-ranging picks quarter steps for small counts)
            ((NumberAxis) chart.getYAxis()).setTickLabelFormatter(new javafx.util.StringConverter<>() {
                @Override
                public String toString(Number n) {
                    return n.doubleValue() == Math.rint(n.doubleValue()) ? Long.toString(n.longValue()) : "";
                }

                @Override
                public Number fromString(String text) {
                    return Double.valueOf(text);
                }
            });
            HBox.setHgrow(chart, Priority.ALWAYS);
        }
        expiredChart.setCategoryGap(4);
        finishedChart.setCategoryGap(4);
        HBox charts = new HBox(12, finishedChart, expiredChart);
        charts.setPrefHeight(300);
        charts.setMinHeight(240);
        Label note = new Label(Messages.text("dashboard.health.note"));
        note.getStyleClass().addAll(Styles.TEXT_MUTED, Styles.TEXT_SMALL);
        // the page is taller than a 1024x640 window with "How the desk did" under the hourly charts: it scrolls
        VBox content = Tables.padded(new VBox(10, desks, Tables.inlineError("health-error", model.errorProperty()), charts, note,
                new DeskReportSection(model.deskReport())));
        ScrollPane scroll = new ScrollPane(content);
        scroll.setId("health-scroll");
        scroll.setFitToWidth(true);
        VBox.setVgrow(scroll, Priority.ALWAYS);
        getChildren().add(scroll);
        fill(finishedChart, model.finishedChartProperty().get());
        fill(expiredChart, model.expiredChartProperty().get());
        model.finishedChartProperty().addListener((o, a, data) -> fill(finishedChart, data));
        model.expiredChartProperty().addListener((o, a, data) -> fill(expiredChart, data));
    }

    private static void fill(XYChart<String, Number> chart, HealthViewModel.HourlyChart data) {
        chart.getData().clear();
        ((CategoryAxis) chart.getXAxis()).setCategories(FXCollections.observableArrayList(data.hours()));
        for (Map.Entry<String, List<Integer>> s : data.series().entrySet()) {
            XYChart.Series<String, Number> series = new XYChart.Series<>();
            series.setName(s.getKey());
            for (int i = 0; i < data.hours().size(); i++) {
                series.getData().add(new XYChart.Data<>(data.hours().get(i), s.getValue().get(i)));
            }
            chart.getData().add(series);
        }
    }
}
