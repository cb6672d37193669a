package org.copydesk.ui.supervisor;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import org.copydesk.review.DeadlineReport;
import org.copydesk.review.DeadlineReport.Day;
import org.copydesk.review.DeadlineReport.Report;
import org.copydesk.review.DeadlineReport.Row;
import org.copydesk.ui.common.Formats;
import org.copydesk.ui.common.Messages;
import org.copydesk.ui.common.Notice;

/**
 * Queue health's "How the desk did" (docs/deadlines.md, "How the desk did"): per desk and stage,
 * today and the 7 days before, the decisions, the share of those with a due time made by it and
 * the median and 90th percentile from arrival to decision, and a chart of the share per day. The
 * days are the supervisor's, counted on the server's clock. Past days do not change, so the 7 are
 * read once a day and kept; every refresh reads today alone.
 */
public final class DeskReportViewModel {

    /** The days before today the table and the chart show. */
    static final int PAST_DAYS = 7;

    /**
     * A desk's (and stage's) line: today, and the 7 days before today taken together. On a desk with
     * stages, after its stages, the line of its final decisions, timed through the whole chain.
     */
    public record ReportRow(String desk, String deskName, String stage, String stageName, boolean throughDesk, Row today, Row week) {

        public String place() {
            if (throughDesk) {
                return deskName + " \u00b7 " + Messages.text("dashboard.report.throughDesk");
            }
            return stageName == null ? deskName : deskName + " \u00b7 " + stageName;
        }
    }

    /** Share in time per day (percent; null: nothing with a due time was decided) per desk, the labels oldest first. */
    public record DailyShare(List<String> days, Map<String, List<Double>> series) {
    }

    /** The past days as read, for the day they were read on: they are kept until the supervisor's date changes. */
    private record Past(LocalDate today, Report report) {
    }

    private record Loaded(Past past, Report today) {
    }

    private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("EEE d");

    private final DashboardContext context;
    private final ObservableList<ReportRow> rows = FXCollections.observableArrayList();
    private final ObjectProperty<DailyShare> chart = new SimpleObjectProperty<>(new DailyShare(List.of(), Map.of()));
    private final StringProperty error = new SimpleStringProperty("");
    private Past past;
    private boolean loading;

    DeskReportViewModel(DashboardContext context) {
        this.context = context;
    }

    /** Reads today again, and the 7 days before it only when the date changed since they were read. */
    public void refresh() {
        if (loading) {
            return;
        }
        loading = true;
        Past kept = past;
        DeadlineReport reports = context.services.deadlineReport();
        context.tasks.run("load how the desk did", () -> {
            Instant now = reports.serverNow();
            List<Day> days = DeadlineReport.daysUpTo(now, PAST_DAYS + 1, context.zone);
            Day today = days.get(PAST_DAYS);
            Past weekBefore = kept != null && kept.today().equals(today.date()) ? kept
                    : new Past(today.date(), reports.of(null, days.subList(0, PAST_DAYS)));
            return new Loaded(weekBefore, reports.of(null, List.of(today)));
        }, loaded -> {
            loading = false;
            past = loaded.past();
            error.set("");
            apply(loaded);
        }, failure -> {
            loading = false;
            context.failed(failure, error);
        });
    }

    private void apply(Loaded loaded) {
        Map<String, ReportRow> byPlace = new LinkedHashMap<>();
        List<Row> all = new ArrayList<>(loaded.today().wholeSpan());
        all.addAll(loaded.past().report().wholeSpan());
        for (Row r : all) {
            byPlace.computeIfAbsent(r.desk() + "\u0000" + Objects.toString(r.stage(), "") + "\u0000" + r.throughDesk(), k -> {
                Row today = find(loaded.today().wholeSpan(), r);
                Row week = find(loaded.past().report().wholeSpan(), r);
                return new ReportRow(r.desk(), context.deskName(r.desk()), r.stage(), r.stageName(), r.throughDesk(), today, week);
            });
        }
        List<ReportRow> sorted = new ArrayList<>(byPlace.values());
        sorted.sort(Comparator.comparing(ReportRow::deskName).thenComparing(ReportRow::throughDesk)
                .thenComparing(x -> Objects.toString(x.stage(), "")));
        rows.setAll(sorted);
        chart.set(dailyShare(loaded));
    }

    private static Row find(List<Row> rows, Row like) {
        return rows.stream().filter(r -> r.desk().equals(like.desk()) && Objects.equals(r.stage(), like.stage())
                && r.throughDesk() == like.throughDesk()).findFirst().orElse(null);
    }

    /**
     * Each desk's share in time per day: of its final decisions of articles with a due time, those
     * made by it (on a desk with stages its through-the-desk rows; a stage's step is not the article's end).
     */
    private DailyShare dailyShare(Loaded loaded) {
        List<Day> days = new ArrayList<>(loaded.past().report().days());
        days.addAll(loaded.today().days());
        List<Row> perDay = new ArrayList<>(loaded.past().report().perDay());
        perDay.addAll(loaded.today().perDay());
        Set<String> staged = perDay.stream().filter(Row::throughDesk).map(Row::desk).collect(Collectors.toSet());
        perDay.removeIf(r -> staged.contains(r.desk()) && !r.throughDesk());
        List<String> labels = new ArrayList<>();
        for (int i = 0; i < days.size(); i++) {
            labels.add(i == days.size() - 1 ? Messages.text("dashboard.report.today") : DAY.format(days.get(i).date()));
        }
        Map<String, List<Double>> series = new LinkedHashMap<>();
        rows.stream().map(ReportRow::desk).distinct().forEach(desk -> {
            List<Double> shares = new ArrayList<>();
            for (Day d : days) {
                int withDue = 0;
                int inTime = 0;
                for (Row r : perDay) {
                    if (r.desk().equals(desk) && r.day().equals(d.date())) {
                        withDue += r.withDue();
                        inTime += r.inTime();
                    }
                }
                shares.add(withDue == 0 ? null : 100.0 * inTime / withDue);
            }
            series.put(context.deskName(desk), shares);
        });
        return new DailyShare(labels, series);
    }

    /** "75 % (3 of 4)", or "—" when nothing decided had a due time. */
    static String share(Row r) {
        return r == null || r.shareInTime() == null ? "\u2014"
                : Messages.text("dashboard.report.share", Math.round(r.shareInTime() * 100), r.inTime(), r.withDue());
    }

    /** "42 min", "1 h 5 min", "—". */
    static String duration(Duration d) {
        return d == null ? "\u2014" : d.toSeconds() < 60 ? Messages.text("dashboard.report.seconds", d.toSeconds()) : Formats.roughly(d);
    }

    static int decisions(Row r) {
        return r == null ? 0 : r.decisions();
    }

    static Duration p50(Row r) {
        return r == null ? null : r.p50();
    }

    static Duration p90(Row r) {
        return r == null ? null : r.p90();
    }

    /** The table as numbers a spreadsheet can add up: seconds, and the share as a fraction. */
    TableSnapshot snapshot() {
        List<List<String>> cells = new ArrayList<>();
        for (ReportRow r : rows) {
            String stage = r.throughDesk() ? Messages.text("dashboard.report.throughDesk") : Objects.toString(r.stageName(), "");
            List<String> line = new ArrayList<>(List.of(r.deskName(), stage));
            for (Row part : new Row[] {r.today(), r.week()}) {
                line.add(Integer.toString(decisions(part)));
                line.add(part == null ? "0" : Integer.toString(part.withDue()));
                line.add(part == null ? "0" : Integer.toString(part.inTime()));
                line.add(part == null || part.p50Seconds() == null ? "" : Long.toString(part.p50Seconds()));
                line.add(part == null || part.p90Seconds() == null ? "" : Long.toString(part.p90Seconds()));
            }
            cells.add(line);
        }
        return new TableSnapshot(List.of("desk", "stage", "today_decisions", "today_with_due", "today_in_time", "today_p50_seconds",
                "today_p90_seconds", "last_7_days_decisions", "last_7_days_with_due", "last_7_days_in_time", "last_7_days_p50_seconds",
                "last_7_days_p90_seconds"), cells);
    }

    /** Writes the table to {@code file} off the FX thread, through the dashboard's CSV export. */
    public void export(Path file) {
        TableSnapshot table = snapshot();
        context.longWork.run("export how the desk did", () -> {
            CsvExport.write(table, file);
            return table.rows().size();
        }, n -> context.post(Notice.Kind.SUCCESS, Messages.text("dashboard.export.done", n, file.getFileName().toString())),
                failure -> context.post(Notice.Kind.ERROR,
                        Messages.text("dashboard.export.failed", file.getFileName().toString(), failure.getMessage())));
    }

    public ObservableList<ReportRow> rows() {
        return rows;
    }

    public ReadOnlyObjectProperty<DailyShare> chartProperty() {
        return chart;
    }

    public ReadOnlyStringProperty errorProperty() {
        return error;
    }
}
