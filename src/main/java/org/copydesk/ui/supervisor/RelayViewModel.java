package org.copydesk.ui.supervisor;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.beans.binding.StringBinding;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import org.copydesk.review.outcomes.RelayState;
import org.copydesk.ui.common.Formats;
import org.copydesk.ui.common.Messages;
import org.copydesk.ui.common.Notice;

/**
 * The "Relay" tab: how many outcomes the webhook relay delivered, how many wait and how many
 * failed, which relay delivers now, the undelivered outcomes with the receiver's last answer, and
 * the retry of failed ones. Reads every refresh interval while the tab is shown, every statistics
 * interval otherwise (the counts read the whole outbox). A retry the database refuses says why
 * next to the buttons.
 */
public final class RelayViewModel {

    /** How many undelivered outcomes the table lists; the counts above it are always complete. */
    static final int LISTED = 500;

    /** An undelivered outcome as the table shows it; times on this PC's clock. */
    public record Row(long cursor, String state, boolean failed, String outcome, String article, String desk, int attempts,
                      String lastAttempt, String lastAnswer, String nextAttempt) {
    }

    private record Reading(RelayState.Counts counts, Optional<RelayState.ActiveRelay> relay, List<RelayState.Undelivered> rows) {
    }

    private final DashboardContext context;
    private final ObjectProperty<RelayState.Counts> counts = new SimpleObjectProperty<>(new RelayState.Counts(0, 0, 0));
    private final StringProperty runningRelay = new SimpleStringProperty("");
    private final ObservableList<Row> rows = FXCollections.observableArrayList();
    private final ObjectProperty<Row> selected = new SimpleObjectProperty<>();
    private final StringProperty actionError = new SimpleStringProperty("");
    private final StringProperty loadError = new SimpleStringProperty("");
    private final BooleanProperty acting = new SimpleBooleanProperty();
    private final boolean mayRetry;
    private boolean loading;
    private boolean shown;
    private long lastLoadNanos;

    RelayViewModel(DashboardContext context) {
        this.context = context;
        // the database refuses a retry from an editor anyway; the buttons say so before anyone tries
        this.mayRetry = context.supervisor.role().canSupervise();
        selected.addListener((o, a, r) -> actionError.set(""));
    }

    public void refresh() {
        if (loading) {
            return;
        }
        loading = true;
        lastLoadNanos = context.ticker.nanoTime();
        RelayState state = context.services.relayState();
        context.tasks.run("load relay state", () -> new Reading(state.counts(), state.activeRelay(), state.undelivered(LISTED)),
                reading -> {
                    loading = false;
                    context.reached();
                    loadError.set("");
                    apply(reading);
                }, failure -> {
                    loading = false;
                    context.failed(failure, loadError);
                });
    }

    /** Reloads when due: often while the tab is shown, seldom while another one is. */
    void tick(long now) {
        var interval = shown ? context.settings.refreshInterval() : context.settings.statsInterval();
        if (!loading && now - lastLoadNanos >= interval.toNanos()) {
            refresh();
        }
    }

    /** Whether the Relay tab is the one on screen (it then reads at the dashboard's refresh cadence). */
    void shown(boolean isShown) {
        shown = isShown;
    }

    private void apply(Reading reading) {
        counts.set(reading.counts());
        runningRelay.set(reading.relay()
                .map(r -> Messages.text("dashboard.relay.running", r.holder(), Formats.localClock(r.until(), context.zone)))
                .orElse(Messages.text("dashboard.relay.noneRunning")));
        long keep = selected.get() == null ? -1 : selected.get().cursor();
        rows.setAll(reading.rows().stream().map(this::row).toList());
        selected.set(rows.stream().filter(r -> r.cursor() == keep).findFirst().orElse(null));
    }

    private Row row(RelayState.Undelivered u) {
        boolean failed = "failed".equals(u.delivery());
        String article = u.title() == null ? Messages.text("dashboard.relay.untitledArticle", u.articleId(), u.externalId())
                : Messages.text("dashboard.relay.articleWithId", u.title(), u.externalId());
        String next = failed ? Messages.text("dashboard.relay.untilRetried")
                : u.nextAttemptAt() == null ? Messages.text("dashboard.relay.whenRelayRuns")
                : Formats.localDayClock(u.nextAttemptAt(), context.zone);
        return new Row(u.cursor(), u.delivery(), failed, u.outcome(), article, context.deskName(u.desk()), u.attempts(),
                u.lastAttemptAt() == null ? Messages.text("dashboard.relay.never") : Formats.localDayClock(u.lastAttemptAt(), context.zone),
                u.lastAnswer() == null ? "" : u.lastAnswer(), next);
    }

    /** Sends the selected failed outcome again. */
    public void retrySelected() {
        Row row = selected.get();
        if (row != null) {
            retry(row.cursor(), Messages.text("dashboard.relay.outcomeNumber", row.cursor()));
        }
    }

    /** Sends every failed outcome again. */
    public void retryAllFailed() {
        retry(null, null);
    }

    private void retry(Long cursor, String which) {
        if (acting.get() || !mayRetry) {
            return;
        }
        RelayState state = context.services.relayState();
        acting.set(true);
        actionError.set("");
        context.tasks.run("retry relay delivery", () -> state.retry(cursor), n -> {
            acting.set(false);
            context.reached();
            if (n == 0) {
                context.post(Notice.Kind.INFO, Messages.text("dashboard.relay.noneFailed"));
            } else {
                context.post(Notice.Kind.SUCCESS, Messages.text("dashboard.relay.retried",
                        which == null ? Messages.text("dashboard.relay.failedOutcomes", n) : which, n));
            }
            refresh();
        }, failure -> {
            acting.set(false);
            context.failed(failure, actionError);
        });
    }

    TableSnapshot snapshot() {
        List<List<String>> out = new ArrayList<>();
        rows.forEach(r -> out.add(List.of(Long.toString(r.cursor()), r.state(), r.outcome(), r.article(), r.desk(),
                Integer.toString(r.attempts()), r.lastAttempt(), r.lastAnswer(), r.nextAttempt())));
        return new TableSnapshot(List.of("cursor", "state", "outcome", "article", "desk", "attempts", "last_attempt",
                "last_answer", "next_attempt"), out);
    }

    public ReadOnlyObjectProperty<RelayState.Counts> countsProperty() {
        return counts;
    }

    /** The relay that delivers now, or in plain words that none does. */
    public ReadOnlyStringProperty runningRelayProperty() {
        return runningRelay;
    }

    public ObservableList<Row> rows() {
        return rows;
    }

    public ObjectProperty<Row> selectedProperty() {
        return selected;
    }

    /** The receiver's last answer to the selected outcome, in full. */
    public StringBinding selectedAnswer() {
        return Bindings.createStringBinding(() -> selected.get() == null ? ""
                : selected.get().lastAnswer().isEmpty() ? Messages.text("dashboard.relay.noAnswerYet")
                : selected.get().lastAnswer(), selected);
    }

    /** Whether this person may retry at all (supervisors and admins). */
    public boolean mayRetry() {
        return mayRetry;
    }

    /** Retry (selected) can run: a failed outcome is selected, and nothing else is under way. */
    public BooleanBinding canRetrySelected() {
        return Bindings.createBooleanBinding(() -> mayRetry && !acting.get() && selected.get() != null && selected.get().failed(),
                selected, acting);
    }

    /** Retry all failed can run: some outcome failed, and nothing else is under way. */
    public BooleanBinding canRetryAll() {
        return Bindings.createBooleanBinding(() -> mayRetry && !acting.get() && counts.get().failed() > 0, counts, acting);
    }

    /** Why the database refused a retry, next to the buttons. */
    public ReadOnlyStringProperty actionErrorProperty() {
        return actionError;
    }

    /** Why the relay's state could not be read (a lost connection shows in the banner instead). */
    public ReadOnlyStringProperty loadErrorProperty() {
        return loadError;
    }

    public ReadOnlyBooleanProperty actingProperty() {
        return acting;
    }
}
