package org.copydesk.ui.editor;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.copydesk.review.Editor;
import org.copydesk.review.HeldArticle;
import org.copydesk.review.ReviewQueue;
import org.copydesk.review.ReviewSession;
import org.copydesk.ui.common.BackgroundTask;
import org.copydesk.ui.common.ConnectionStatus;
import org.copydesk.ui.common.Formats;
import org.copydesk.ui.common.Messages;
import org.copydesk.ui.common.Notice;
import org.copydesk.ui.common.NoticeBoard;
import org.copydesk.ui.common.TaskExecutor;
import org.copydesk.ui.common.Ticker;

/**
 * Keeps the editor's leases while the editor works and lets them go when the editor does not: the
 * countdowns, a heartbeat that renews every lease (and sooner for leases shorter than the
 * heartbeat), nothing renewed after the idle timeout, a warning with "Keep it" before a lease runs
 * out, and a lease that reached 0:00 or was found lost leaving the list with the database's reason,
 * its notes kept as a draft.
 */
final class LeaseUpkeep {

    private final ReviewSession services;
    private final Editor editor;
    private final TaskExecutor tasks;
    private final Ticker ticker;
    private final EditorViewModel.Settings settings;
    private final HeldList held;
    private final DraftKeeper drafts;
    private final NoticeBoard notices;
    private final ConnectionStatus connection;
    private final Consumer<Throwable> onFailure;
    private final Consumer<String> attention;
    private long lastActivityNanos;
    private long lastHeartbeatNanos;
    private boolean renewing;

    LeaseUpkeep(ReviewSession services, Editor editor, TaskExecutor tasks, Ticker ticker, EditorViewModel.Settings settings,
                HeldList held, DraftKeeper drafts, NoticeBoard notices, ConnectionStatus connection,
                Consumer<Throwable> onFailure, Consumer<String> attention) {
        this.services = services;
        this.editor = editor;
        this.tasks = tasks;
        this.ticker = ticker;
        this.settings = settings;
        this.held = held;
        this.drafts = drafts;
        this.notices = notices;
        this.connection = connection;
        this.onFailure = onFailure;
        this.attention = attention;
        this.lastActivityNanos = ticker.nanoTime();
        this.lastHeartbeatNanos = ticker.nanoTime();
    }

    /** The editor is at work (a key, a click). */
    void activity() {
        lastActivityNanos = ticker.nanoTime();
    }

    boolean idle() {
        return ticker.nanoTime() - lastActivityNanos > settings.idleTimeout().toNanos();
    }

    /** Get articles refreshed every lease just now: the next heartbeat is a full interval away. */
    void refreshed() {
        lastHeartbeatNanos = ticker.nanoTime();
    }

    /** Every tick: countdowns, warnings, lapsed leases, the heartbeat. */
    void tick() {
        long now = ticker.nanoTime();
        for (LeaseRow row : List.copyOf(held.rows())) {
            if (row.tick(now).isZero()) {
                lapse(row); // the server's clock says the lease is over: it is not the editor's any more
            } else if (row.shouldWarn(settings.warnBefore())) {
                String text = Messages.text("editor.lease.runningOut", row.article().title(),
                        Formats.roughly(row.remainingProperty().get()));
                notices.post(Notice.Kind.WARNING, text, Messages.text("editor.lease.keepIt"), () -> keep(row));
                attention.accept(text);
            }
        }
        if (!connection.isOffline() && !renewing && (now - lastHeartbeatNanos >= settings.heartbeatInterval().toNanos()
                || soonerRenewalNeeded(now))) {
            lastHeartbeatNanos = now;
            if (idle()) {
                return; // abandoned work goes back to the queue when its leases run out
            }
            if (held.rows().isEmpty()) {
                recordPresence(); // online with nothing in hand
            } else {
                renew(List.copyOf(held.rows()));
            }
        }
    }

    /**
     * A working editor's leases never run out under them: a lease shorter than the heartbeat
     * interval (a desk may lease for 30 s) is renewed when two thirds of it have passed.
     */
    private boolean soonerRenewalNeeded(long now) {
        return !idle() && now - lastHeartbeatNanos >= Duration.ofSeconds(5).toNanos()
                && held.rows().stream().anyMatch(LeaseRow::renewalDue);
    }

    /** "Keep it": renews one lease now. */
    void keep(LeaseRow row) {
        activity();
        renew(List.of(row));
    }

    /** Renews these leases; the ones found lost leave the list with the reason. */
    void renew(List<LeaseRow> rows) {
        if (rows.isEmpty() || connection.isOffline()) {
            return;
        }
        List<HeldArticle> articles = rows.stream().map(LeaseRow::article).toList();
        BackgroundTask.of("renew leases", () -> services.queue().renew(editor.id(), articles))
                .onRunning(() -> {
                    renewing = true;
                    held.changeStarted();
                })
                .onFinished(() -> {
                    renewing = false;
                    held.changeFinished();
                })
                .onSuccess(renewal -> {
                    long now = ticker.nanoTime();
                    Map<Long, HeldArticle> renewed = renewal.renewed().stream()
                            .collect(Collectors.toMap(HeldArticle::id, h -> h));
                    for (LeaseRow row : List.copyOf(held.rows())) {
                        HeldArticle r = renewed.get(row.id());
                        if (r != null) {
                            row.update(r, now);
                            notices.removeIf(n -> n.action() != null && n.text().contains(row.article().title()));
                        }
                    }
                    renewal.lost().forEach(this::lost);
                })
                .onFailure(onFailure)
                .executeWith(tasks);
    }

    private void recordPresence() {
        BackgroundTask.of("record presence", () -> services.queue().recordPresence(editor.id()))
                .onFailure(onFailure).executeWith(tasks);
    }

    /**
     * A lease whose countdown reached zero leaves the list at once, its notes saved as a draft,
     * with the reason in plain words from the database (run out, taken, taken back, given away).
     */
    void lapse(LeaseRow row) {
        HeldArticle a = row.article();
        drafts.keepAfterLoss(row.id());
        notices.removeIf(n -> n.action() != null && n.text().contains(a.title()));
        held.remove(row);
        BackgroundTask.of("explain a lapsed lease", () -> services.queue().lapsed(a))
                .onSuccess(lost -> tell(lost.message()))
                .onFailure(failure -> {
                    tell(Messages.text("editor.lease.ranOut", a.title()));
                    onFailure.accept(failure);
                })
                .executeWith(tasks);
    }

    /** A lease found lost (heartbeat, decision, the list watch): it leaves the list, the notes stay, the editor is told why. */
    void lost(ReviewQueue.LostArticle lost) {
        if (held.isGone(HeldList.key(lost.article()))) {
            return; // already let go of, and said why
        }
        held.find(lost.article().id()).ifPresent(row -> {
            drafts.keepAfterLoss(row.id());
            notices.removeIf(n -> n.action() != null && n.text().contains(row.article().title()));
            held.remove(row);
        });
        tell(lost.message());
    }

    private void tell(String message) {
        notices.post(Notice.Kind.ERROR, message);
        attention.accept(message);
    }

    /** Sends {@code text} to the desktop (the view passes it on only while the window is in the background). */
    void alertDesktop(String text) {
        attention.accept(text);
    }
}
