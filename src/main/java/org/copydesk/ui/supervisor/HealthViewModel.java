package org.copydesk.ui.supervisor;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import org.copydesk.review.QueueStatistics;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.Supervision;
import org.copydesk.ui.common.Formats;
import org.copydesk.ui.common.Messages;

/**
 * The "Queue health" and "Editors" tabs: counts per desk, two hourly charts and the people with
 * their presence and load, read together every half minute and when either tab is opened.
 */
public final class HealthViewModel {

    /** A desk's counts as the queue-health table shows them. */
    public record DeskRow(String desk, String name, int waitingNow, int scheduled, int inReview, int sentBack,
                          int quarantined, int finishedToday, String oldestWaiting) {
    }

    /** A person as the editors table shows them. */
    public record EditorRow(String id, String name, String role, Presence presence, String lastSeen, int held,
                            int capacity, int finishedToday) {
        public String load() {
            return held + " / " + capacity;
        }
    }

    /** Counts per hour for a chart: one label per hour of the supervisor's clock, one list of counts per series. */
    public record HourlyChart(List<String> hours, Map<String, List<Integer>> series) {
    }

    private record Stats(List<Supervision.DeskHealth> health, QueueStatistics.Quarterly finished,
                         QueueStatistics.Quarterly expired, List<QueueStatistics.EditorLoad> editors) {
    }

    /** The charts' span: the last 24 hours, the current one included. */
    private static final int HOURS = 24;

    private final DashboardContext context;
    private final ObservableList<DeskRow> deskRows = FXCollections.observableArrayList();
    private final ObjectProperty<HourlyChart> finishedChart = new SimpleObjectProperty<>(new HourlyChart(List.of(), Map.of()));
    private final ObjectProperty<HourlyChart> expiredChart = new SimpleObjectProperty<>(new HourlyChart(List.of(), Map.of()));
    private final ObservableList<EditorRow> editorRows = FXCollections.observableArrayList();
    private final StringProperty error = new SimpleStringProperty("");
    private final DeskReportViewModel deskReport;
    private boolean loading;
    private long lastLoadNanos;

    HealthViewModel(DashboardContext context) {
        this.context = context;
        this.deskReport = new DeskReportViewModel(context);
    }

    public void refresh() {
        if (loading) {
            return;
        }
        loading = true;
        lastLoadNanos = context.ticker.nanoTime();
        deskReport.refresh();
        ReviewSession services = context.services;
        context.tasks.run("load queue health", () -> new Stats(services.supervision().queueHealth(),
                services.statistics().finishedPerQuarter(Duration.ofHours(24)),
                services.statistics().expiredPerQuarter(Duration.ofHours(24)),
                services.statistics().editorLoad()), stats -> {
            loading = false;
            context.reached();
            error.set("");
            apply(stats);
        }, failure -> {
            loading = false;
            context.failed(failure, error);
        });
    }

    /** Reloads when the numbers are older than the settings allow. */
    void tick(long now) {
        if (!loading && now - lastLoadNanos >= context.settings.statsInterval().toNanos()) {
            refresh();
        }
    }

    private void apply(Stats stats) {
        LocalDateTime now = stats.finished().serverNow();
        deskRows.setAll(stats.health().stream().map(h -> new DeskRow(h.desk(), h.name(), h.waitingNow(), h.scheduled(),
                h.inReview(), h.sentBack(), h.quarantined(), h.finishedToday(),
                h.oldestWaitingSince() == null ? "\u2014" : Formats.roughly(Duration.between(h.oldestWaitingSince(), now))))
                .toList());
        List<String> deskNamesInOrder = stats.health().stream().map(Supervision.DeskHealth::name).toList();
        finishedChart.set(chart(stats.finished(), c -> context.deskName(c.desk()), deskNamesInOrder));
        expiredChart.set(chart(stats.expired(), c -> context.deskName(c.desk()), deskNamesInOrder));
        DashboardViewModel.Settings settings = context.settings;
        editorRows.setAll(stats.editors().stream().map(e -> new EditorRow(e.id(), e.displayName(),
                e.role().name().toLowerCase(Locale.ROOT), Presence.of(e.sinceSeen(), settings.idleAfter(), settings.offlineAfter()),
                e.sinceSeen() == null ? Messages.text("dashboard.editors.neverSeen")
                        : Messages.text("dashboard.editors.seenAgo", Formats.roughly(e.sinceSeen())), e.held(), e.capacity(),
                e.finishedToday())).toList());
    }

    /**
     * The last 24 hours of the supervisor's clock, the current one last, each the sum of the
     * quarter hours that fall in it. The hours are local ones, so in a zone at +05:30 the bar
     * labelled 2:00 PM holds what was finished from 2:00 to 2:59 there. On the night the clocks go
     * back an hour comes twice; the second is labelled with its offset, since a chart's categories
     * must differ (two equal labels would be drawn as one, and every later bar would slide left).
     */
    private HourlyChart chart(QueueStatistics.Quarterly counts, Function<QueueStatistics.QuarterCount, String> series,
                              List<String> alwaysShown) {
        ZonedDateTime currentHour = counts.serverNow().atOffset(ZoneOffset.UTC).atZoneSameInstant(context.zone)
                .truncatedTo(ChronoUnit.HOURS);
        Instant first = currentHour.toInstant().minus(Duration.ofHours(HOURS - 1));
        List<String> labels = new ArrayList<>();
        for (int i = 0; i < HOURS; i++) {
            ZonedDateTime start = first.plus(Duration.ofHours(i)).atZone(context.zone);
            String label = Formats.localClock(start.withZoneSameInstant(ZoneOffset.UTC).toLocalDateTime(), context.zone);
            labels.add(labels.contains(label) ? Messages.text("dashboard.health.hourWithOffset", label, start.getOffset().getId()) : label);
        }
        Map<String, List<Integer>> data = new LinkedHashMap<>();
        alwaysShown.forEach(name -> data.put(name, zeros()));
        for (QueueStatistics.QuarterCount c : counts.counts()) {
            long minutes = Duration.between(first, c.from().toInstant(ZoneOffset.UTC)).toMinutes();
            int i = (int) Math.floorDiv(minutes, 60);
            if (minutes >= 0 && i < HOURS) {
                List<Integer> bars = data.computeIfAbsent(series.apply(c), k -> zeros());
                bars.set(i, bars.get(i) + c.count());
            }
        }
        return new HourlyChart(labels, data);
    }

    private static List<Integer> zeros() {
        return new ArrayList<>(Collections.nCopies(HOURS, 0));
    }

    TableSnapshot deskSnapshot() {
        return new TableSnapshot(List.of("desk", "waiting_now", "scheduled", "in_review", "sent_back", "quarantined",
                "finished_today", "oldest_waiting"), deskRows.stream().map(d -> List.of(d.name(), i(d.waitingNow()),
                i(d.scheduled()), i(d.inReview()), i(d.sentBack()), i(d.quarantined()), i(d.finishedToday()), d.oldestWaiting()))
                .toList());
    }

    TableSnapshot editorSnapshot() {
        return new TableSnapshot(List.of("editor", "id", "role", "presence", "last_seen", "held", "capacity",
                "finished_today"), editorRows.stream().map(e -> List.of(e.name(), e.id(), e.role(), e.presence().label(),
                e.lastSeen(), i(e.held()), i(e.capacity()), i(e.finishedToday()))).toList());
    }

    private static String i(int n) {
        return Integer.toString(n);
    }

    public ObservableList<DeskRow> deskRows() {
        return deskRows;
    }

    public ReadOnlyObjectProperty<HourlyChart> finishedChartProperty() {
        return finishedChart;
    }

    public ReadOnlyObjectProperty<HourlyChart> expiredChartProperty() {
        return expiredChart;
    }

    /** How the desk did: today and the 7 days before, read with the rest (past days once a day). */
    public DeskReportViewModel deskReport() {
        return deskReport;
    }

    public ObservableList<EditorRow> editorRows() {
        return editorRows;
    }

    /** Why the numbers could not be read (a lost connection shows in the banner instead). */
    public ReadOnlyStringProperty errorProperty() {
        return error;
    }
}
