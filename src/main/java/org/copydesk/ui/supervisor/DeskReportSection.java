package org.copydesk.ui.supervisor;

import static org.copydesk.ui.supervisor.Tables.muted;
import static org.copydesk.ui.supervisor.Tables.numberColumn;
import static org.copydesk.ui.supervisor.Tables.textColumn;

import atlantafx.base.theme.Styles;
import java.io.File;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import javafx.beans.binding.Bindings;
import javafx.geometry.Pos;
import javafx.geometry.Side;
import javafx.scene.chart.BarChart;
import javafx.scene.chart.CategoryAxis;
import javafx.scene.chart.NumberAxis;
import javafx.scene.chart.XYChart;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import javafx.stage.FileChooser;
import org.copydesk.review.DeadlineReport.Row;
import org.copydesk.ui.common.Messages;
import org.kordamp.ikonli.feather.Feather;
import org.kordamp.ikonli.javafx.FontIcon;

/**
 * Queue health's "How the desk did": a table per desk and stage (today, the 7 days before) and a
 * chart of each desk's share decided in time per day. Binds to {@link DeskReportViewModel}.
 */
final class DeskReportSection extends VBox {

    /** The two header rows (the period, then its columns) and one line, in pixels at 100 %. */
    private static final double HEADER_HEIGHT = 80;
    private static final double LINE_HEIGHT = 36;

    private final BarChart<String, Number> chart = new BarChart<>(new CategoryAxis(), new NumberAxis(0, 100, 25));

    DeskReportSection(DeskReportViewModel model) {
        super(8);
        Label title = new Label(Messages.text("dashboard.report.title"));
        title.getStyleClass().add(Styles.TITLE_4);
        Button export = new Button(Messages.text("dashboard.report.export"), new FontIcon(Feather.DOWNLOAD));
        export.setId("export-desk-report");
        export.setTooltip(new Tooltip(Messages.text("dashboard.report.export.tooltip")));
        export.setOnAction(e -> export(model));
        Region gap = new Region();
        HBox.setHgrow(gap, Priority.ALWAYS);
        HBox head = new HBox(8, title, gap, export);
        head.setAlignment(Pos.CENTER_LEFT);

        TableView<DeskReportViewModel.ReportRow> table = new TableView<>(model.rows());
        table.setId("desk-report");
        table.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        table.getColumns().setAll(List.of(
                place(),
                period(Messages.text("dashboard.report.today.column"), true),
                period(Messages.text("dashboard.report.week.column"), false)));
        table.setPlaceholder(muted(Messages.text("dashboard.report.empty")));
        // every line in sight up to eight (a desk with stages has a line per stage and one through the desk), then a scroll
        table.prefHeightProperty().bind(Bindings.createDoubleBinding(
                () -> HEADER_HEIGHT + LINE_HEIGHT * Math.min(8, Math.max(2, model.rows().size())), model.rows()));
        table.setFixedCellSize(LINE_HEIGHT);
        table.setMinHeight(150);

        chart.setId("desk-report-chart");
        chart.setTitle(Messages.text("dashboard.report.chart.title"));
        chart.setAnimated(false);
        chart.setLegendSide(Side.BOTTOM);
        chart.setCategoryGap(8);
        chart.setBarGap(1);
        chart.setPrefHeight(260);
        chart.setMinHeight(220);
        ((NumberAxis) chart.getYAxis()).setMinorTickVisible(false);
        ((CategoryAxis) chart.getXAxis()).setTickLabelRotation(-90);
        Label note = new Label(Messages.text("dashboard.report.note"));
        note.setWrapText(true);
        note.getStyleClass().addAll(Styles.TEXT_MUTED, Styles.TEXT_SMALL);
        getChildren().addAll(head, table, Tables.inlineError("desk-report-error", model.errorProperty()), chart, note);
        fill(model.chartProperty().get());
        model.chartProperty().addListener((o, a, data) -> fill(data));
    }

    /** Desk and stage: wide enough for "Sport · Through the desk" before the numbers take the rest. */
    private static TableColumn<DeskReportViewModel.ReportRow, String> place() {
        TableColumn<DeskReportViewModel.ReportRow, String> c = textColumn(Messages.text("dashboard.report.place.column"), 180,
                DeskReportViewModel.ReportRow::place);
        c.setMinWidth(165);
        return c;
    }

    /** Decisions, in time, p50, p90 of one period, under the period's name. */
    private static TableColumn<DeskReportViewModel.ReportRow, ?> period(String name, boolean today) {
        TableColumn<DeskReportViewModel.ReportRow, String> group = new TableColumn<>(name);
        Function<DeskReportViewModel.ReportRow, Row> part = r -> today ? r.today() : r.week();
        group.getColumns().setAll(List.of(
                Tables.<DeskReportViewModel.ReportRow, Number>explained(numberColumn(Messages.text("dashboard.report.decisions.column"),
                        r -> DeskReportViewModel.decisions(part.apply(r))), Messages.text("dashboard.report.decisions.means")),
                Tables.explained(textColumn(Messages.text("dashboard.report.inTime.column"), 90,
                        r -> DeskReportViewModel.share(part.apply(r))), Messages.text("dashboard.report.inTime.means")),
                Tables.explained(textColumn("p50", 80, r -> DeskReportViewModel.duration(DeskReportViewModel.p50(part.apply(r)))),
                        Messages.text("dashboard.report.p50.means")),
                Tables.explained(textColumn("p90", 80, r -> DeskReportViewModel.duration(DeskReportViewModel.p90(part.apply(r)))),
                        Messages.text("dashboard.report.p90.means"))));
        // the headers say what a column is: narrow windows cut the figures' room before the names ("p…" said nothing)
        group.getColumns().forEach(c -> c.setMinWidth(c.getText().length() <= 3 ? 78 : 96));
        return group;
    }

    private void export(DeskReportViewModel model) {
        FileChooser chooser = new FileChooser();
        chooser.setTitle(Messages.text("dashboard.export.title", Messages.text("dashboard.report.title")));
        chooser.setInitialFileName("copydesk-how-the-desk-did.csv");
        chooser.getExtensionFilters().add(new FileChooser.ExtensionFilter(Messages.text("dashboard.export.csvFiles"), "*.csv"));
        File file = chooser.showSaveDialog(getScene() == null ? null : getScene().getWindow());
        if (file != null) {
            model.export(file.toPath());
        }
    }

    private void fill(DeskReportViewModel.DailyShare data) {
        chart.getData().clear();
        for (Map.Entry<String, List<Double>> s : data.series().entrySet()) {
            XYChart.Series<String, Number> series = new XYChart.Series<>();
            series.setName(s.getKey());
            for (int i = 0; i < data.days().size(); i++) {
                // every day a point, 0 where nothing with a due time was decided: a category axis labels only the
                // categories its series name (one without points drew no day at all)
                Double share = s.getValue().get(i);
                series.getData().add(new XYChart.Data<>(data.days().get(i), share == null ? 0 : share));
            }
            chart.getData().add(series);
        }
    }
}
