package org.copydesk.ui.supervisor;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.function.Consumer;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import org.copydesk.review.DeadlineForecast;
import org.copydesk.review.DeadlineForecast.AtRiskTold;
import org.copydesk.review.DeadlineForecast.DueArticle;
import org.copydesk.review.DeadlineForecast.Forecast;
import org.copydesk.review.Desk;
import org.copydesk.ui.common.Formats;
import org.copydesk.ui.common.Messages;
import org.copydesk.ui.common.Notice;

/**
 * The "Deadlines" tab: one desk's articles due in the next hours, earliest first, with the forecast
 * the database makes from the desk's pace (docs/deadlines.md, "The forecast"): the line on top, each
 * stage's pace, and per article the time left, when it is expected through, and whether it is late or
 * at risk. Read as the Queue is (shown, pointer elsewhere, every refresh interval). Apart from the tab,
 * whatever is shown, the at-risk events the sweep tells are watched: each new one is a warning
 * notice, and a desktop alert while the dashboard is not in front. The acts on a row are in
 * {@link DeadlineActionsViewModel}.
 */
public final class DeadlinesViewModel {

    /** How often the told at-risk events are looked for: the sweep forecasts a desk at most once a minute. */
    static final Duration WATCH_INTERVAL = Duration.ofSeconds(10);

    private final DashboardContext context;
    private final DeskChoice choice = new DeskChoice();
    private final ObjectProperty<Desk> desk = choice.desk();
    private final ObservableList<DueArticle> items = FXCollections.observableArrayList();
    private final ObjectProperty<DueArticle> selected = new SimpleObjectProperty<>();
    private final StringProperty line = new SimpleStringProperty("");
    private final StringProperty pace = new SimpleStringProperty("");
    private final StringProperty loadError = new SimpleStringProperty("");
    private final BooleanProperty pointerOver = new SimpleBooleanProperty();
    private final DeskTabReads<Forecast> reads;
    private Instant serverNow;
    private Consumer<String> attention = text -> { };
    /** The last at-risk event seen; null until the first look (what was told before the dashboard opened is not news). */
    private Long lastEvent;
    private boolean watching;
    private long lastWatchNanos = Long.MIN_VALUE / 2;

    DeadlinesViewModel(DashboardContext context) {
        this.context = context;
        this.reads = new DeskTabReads<>(context, "forecast the desk's deadlines",
                id -> context.services.deadlineForecast().of(id, DeadlineForecast.DEFAULT_WITHIN), Forecast::desk, loadError, pointerOver);
        desk.addListener((o, a, d) -> {
            selected.set(null);
            items.clear();
            line.set("");
            pace.set("");
            refresh();
        });
    }

    void desksKnown() {
        choice.desksKnown(context);
    }

    /** Reads the chosen desk's forecast again. */
    public void refresh() {
        reads.refresh(desk.get(), desk::get, f -> {
            long keep = selected.get() == null ? -1 : selected.get().id();
            serverNow = f.serverNow();
            items.setAll(f.articles());
            selected.set(items.stream().filter(i -> i.id() == keep).findFirst().orElse(null));
            line.set(lineOf(f));
            pace.set(paceOf(f));
        });
    }

    void tick(long now) {
        if (reads.due(now)) {
            refresh();
        }
        if (!watching && now - lastWatchNanos >= WATCH_INTERVAL.toNanos()) {
            watch();
        }
    }

    void shown(boolean isShown) {
        reads.shown(isShown);
    }

    /** Where a new at-risk warning goes besides the notice: the desktop, while the dashboard is not in front. */
    public void onAttention(Consumer<String> alert) {
        this.attention = alert;
    }

    /** Looks for at-risk events told since the last look; each is said once. */
    void watch() {
        watching = true;
        lastWatchNanos = context.ticker.nanoTime();
        DeadlineForecast forecasts = context.services.deadlineForecast();
        Long after = lastEvent;
        if (after == null) {
            context.tasks.run("look for deadlines at risk", forecasts::lastEvent, last -> {
                watching = false;
                lastEvent = last;
            }, failure -> watching = false);
            return;
        }
        context.tasks.run("look for deadlines at risk", () -> forecasts.toldSince(after), told -> {
            watching = false;
            for (AtRiskTold t : told) {
                lastEvent = Math.max(lastEvent, t.eventId());
                String text = Messages.text("dashboard.deadlines.atRiskNotice", t.title(), context.deskName(t.desk()),
                        Formats.localClock(LocalDateTime.ofInstant(t.dueAt(), ZoneOffset.UTC), context.zone));
                context.post(Notice.Kind.WARNING, text);
                attention.accept(text);
            }
            if (desk.get() != null && told.stream().anyMatch(t -> t.desk().equals(desk.get().id()))) {
                refresh();
            }
        }, failure -> watching = false);
    }

    // --- how it reads -----------------------------------------------------------------------------------

    /** "3 of the 8 due by 18:00 will miss at the current pace (3 editors, 12 an hour)". */
    String lineOf(Forecast f) {
        String by = Formats.localClock(LocalDateTime.ofInstant(f.dueUntil(), ZoneOffset.UTC), context.zone);
        String who = Messages.text("dashboard.deadlines.people", f.people());
        String line;
        if (f.due() == 0) {
            line = Messages.text("dashboard.deadlines.line.nothing", by, who);
        } else if (f.perHour() == null) {
            line = Messages.text("dashboard.deadlines.line.noPace", f.due(), by, who);
        } else {
            line = Messages.text("dashboard.deadlines.line", f.atRisk(), f.due(), by, who, f.perHour());
        }
        return f.late() == 0 ? line : line + " " + Messages.text("dashboard.deadlines.line.late", f.late());
    }

    /** "Copy edit 12 an hour, 3 editors · Legal no pace yet, 1 editor". */
    private static String paceOf(Forecast f) {
        return String.join(" \u00b7 ", f.stages().stream().map(s -> Messages.text(s.paced() ? "dashboard.deadlines.stagePace"
                : "dashboard.deadlines.stageNoPace", s.name(), s.perHour(), s.people())).toList());
    }

    /** "At risk", "Late", "In time", "No pace yet", "On hold", "With the writer", "Quarantined": words, not only a colour. */
    public String forecastOf(DueArticle a) {
        if (a.late()) {
            return Messages.text("dashboard.deadlines.state.late");
        }
        if (a.notForecast() != null) {
            return Messages.text(switch (a.notForecast()) {
                case NO_PACE -> "dashboard.deadlines.state.noPace";
                case ON_HOLD -> "dashboard.deadlines.state.onHold";
                case WITH_WRITER -> "dashboard.deadlines.state.withWriter";
                case QUARANTINED -> "dashboard.deadlines.state.quarantined";
            });
        }
        return Messages.text(a.atRisk() ? "dashboard.deadlines.state.atRisk" : "dashboard.deadlines.state.inTime");
    }

    /** "in 25 min", "late by 5 min", against the server's clock when the forecast was read. */
    public String leftOf(DueArticle a) {
        Duration left = a.left(serverNow == null ? a.dueAt() : serverNow);
        return left.isNegative() || left.isZero() ? Messages.text("dashboard.deadlines.lateBy", Formats.roughly(left.negated()))
                : Messages.text("dashboard.deadlines.in", Formats.roughly(left));
    }

    public String dueOf(DueArticle a) {
        return Formats.localClock(LocalDateTime.ofInstant(a.dueAt(), ZoneOffset.UTC), context.zone);
    }

    public String expectedOf(DueArticle a) {
        return a.expectedAt() == null ? "" : Formats.localClock(LocalDateTime.ofInstant(a.expectedAt(), ZoneOffset.UTC), context.zone);
    }

    public String holderOf(DueArticle a) {
        return a.heldBy() == null ? "" : context.personName(a.heldBy());
    }

    TableSnapshot snapshot() {
        return new TableSnapshot(List.of("article", "title", "stage", "held_by", "due_at_utc", "expected_at_utc", "position", "forecast"),
                items.stream().map(a -> List.of(Long.toString(a.id()), a.title(), a.stage() == null ? "" : a.stage(),
                        a.heldBy() == null ? "" : a.heldBy(), a.dueAt().toString(), a.expectedAt() == null ? "" : a.expectedAt().toString(),
                        a.position() == null ? "" : a.position().toString(), forecastOf(a))).toList());
    }

    // --- what the view binds to ---------------------------------------------------------------------

    public ObservableList<Desk> desks() {
        return choice.desks();
    }

    public ObjectProperty<Desk> deskProperty() {
        return desk;
    }

    public ObservableList<DueArticle> items() {
        return items;
    }

    public ObjectProperty<DueArticle> selectedProperty() {
        return selected;
    }

    public ReadOnlyStringProperty lineProperty() {
        return line;
    }

    public ReadOnlyStringProperty paceProperty() {
        return pace;
    }

    public ReadOnlyStringProperty loadErrorProperty() {
        return loadError;
    }

    public BooleanProperty pointerOverProperty() {
        return pointerOver;
    }

    DashboardContext context() {
        return context;
    }
}
