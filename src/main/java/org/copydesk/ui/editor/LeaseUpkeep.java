package org.copydesk.ui.editor;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.copydesk.lease.LeaseLost;
import org.copydesk.lease.LostReason;
import org.copydesk.review.HeldArticle;
import org.copydesk.review.ReviewQueue;
import org.copydesk.ui.common.BackgroundTask;
import org.copydesk.ui.common.Formats;
import org.copydesk.ui.common.Messages;
import org.copydesk.ui.common.Notice;

/**
 * Keeps the editor's leases while the editor works and lets them go when the editor does not: the
 * countdowns, a heartbeat that renews every lease (and sooner for leases shorter than the
 * heartbeat), nothing renewed after the idle timeout, a warning with "Keep it" before a lease runs
 * out, and a lease that reached 0:00 or was found lost leaving the list with the database's reason
 * (a supervisor's act as news that fades, the rest as a fault that stays), its notes kept as a draft.
 *
 * <p>The one place where a lease gains time ({@link #renewed}) and where one is lost
 * ({@link #lost}), whoever found out (the heartbeat, the list watch, a decision, the countdown):
 * the row, the draft and the notices each hear of it once, here.
 */
final class LeaseUpkeep {

    private final EditorContext context;
    private final HeldList held;
    private final DraftKeeper drafts;
    /** The "goes back to the queue in 2 min" warning on screen per article, taken away once the lease has more time. */
    private final Map<Long, Notice> warnings = new HashMap<>();
    /** Why an article was lost ("… ran out"), per article, taken away once the editor holds it again. */
    private final Map<Long, Notice> losses = new HashMap<>();
    private long lastHeartbeatNanos;
    private boolean renewing;

    LeaseUpkeep(EditorContext context, DraftKeeper drafts) {
        this.context = context;
        this.held = context.held;
        this.drafts = drafts;
        this.lastHeartbeatNanos = context.ticker.nanoTime();
    }

    /** Get articles refreshed every lease just now: the next heartbeat is a full interval away. */
    void refreshed() {
        lastHeartbeatNanos = context.ticker.nanoTime();
    }

    /** Every tick: countdowns, warnings, lapsed leases, the heartbeat. */
    void tick() {
        long now = context.ticker.nanoTime();
        for (LeaseRow row : List.copyOf(held.rows())) {
            if (row.tick(now).isZero()) {
                lapse(row); // the server's clock says the lease is over: it is not the editor's any more
            } else if (row.shouldWarn(context.settings.warnBefore())) {
                warn(row);
            }
        }
        if (!context.connection.isOffline() && !renewing
                && (now - lastHeartbeatNanos >= context.settings.heartbeatInterval().toNanos() || soonerRenewalNeeded(now))) {
            lastHeartbeatNanos = now;
            if (context.idle()) {
                return; // abandoned work goes back to the queue when its leases run out
            }
            if (held.rows().isEmpty()) {
                recordPresence(); // online with nothing in hand
            } else {
                renew(List.copyOf(held.rows()));
            }
        }
    }

    private void warn(LeaseRow row) {
        String text = Messages.text("editor.lease.runningOut", row.article().title(),
                Formats.roughly(row.remainingProperty().get()));
        dropWarning(row.id());
        warnings.put(row.id(), context.notices.post(Notice.Kind.WARNING, text, Messages.text("editor.lease.keepIt"),
                () -> keep(row)));
        context.alertDesktop(text);
    }

    private void dropWarning(long articleId) {
        Notice warning = warnings.remove(articleId);
        if (warning != null) {
            context.notices.dismiss(warning);
        }
    }

    /**
     * A working editor's leases never run out under them: a lease shorter than the heartbeat
     * interval (a desk may lease for 30 s) is renewed when two thirds of it have passed.
     */
    private boolean soonerRenewalNeeded(long now) {
        return !context.idle() && now - lastHeartbeatNanos >= Duration.ofSeconds(5).toNanos()
                && held.rows().stream().anyMatch(LeaseRow::renewalDue);
    }

    /**
     * "Keep it" by its key: renews every lease the editor was warned is running out (the selected
     * one's warning is the one read, but all of them run out alike). False if none was warned about.
     */
    boolean keepWarned() {
        List<LeaseRow> warned = held.rows().stream().filter(r -> warnings.containsKey(r.id())).toList();
        if (warned.isEmpty()) {
            return false;
        }
        context.activity();
        renew(warned);
        return true;
    }

    /** "Keep it": renews one lease now. */
    void keep(LeaseRow row) {
        context.activity();
        renew(List.of(row));
    }

    /** Renews these leases; the ones found lost leave the list with the reason. */
    void renew(List<LeaseRow> rows) {
        if (rows.isEmpty() || context.connection.isOffline()) {
            return;
        }
        List<HeldArticle> articles = rows.stream().map(LeaseRow::article).toList();
        BackgroundTask.of("renew leases", () -> context.session.queue().renew(context.editor.id(), articles))
                .onRunning(() -> {
                    renewing = true;
                    held.changeStarted();
                })
                .onFinished(() -> {
                    renewing = false;
                    held.changeFinished();
                })
                .onSuccess(renewal -> {
                    Map<Long, HeldArticle> renewedNow = renewal.renewed().stream()
                            .collect(Collectors.toMap(HeldArticle::id, h -> h));
                    for (LeaseRow row : List.copyOf(held.rows())) {
                        HeldArticle r = renewedNow.get(row.id());
                        if (r != null) {
                            renewed(row, r);
                        }
                    }
                    renewal.lost().forEach(this::lost);
                })
                .onFailure(context::failed)
                .executeWith(context.tasks);
    }

    /**
     * The lease on {@code row} was read with more time (renewed here or in another window, or
     * extended by a supervisor): the countdown shows it and a warning that it runs out goes.
     */
    void renewed(LeaseRow row, HeldArticle article) {
        row.update(article, context.ticker.nanoTime());
        dropWarning(row.id());
    }

    /**
     * The editor holds this article again (Get articles gave it back to them, or a supervisor did):
     * the notice that said it was lost no longer holds.
     */
    void heldAgain(long articleId) {
        Notice loss = losses.remove(articleId);
        if (loss != null) {
            context.notices.dismiss(loss);
        }
    }

    private void recordPresence() {
        BackgroundTask.of("record presence", () -> context.session.queue().recordPresence(context.editor.id()))
                .onFailure(context::failed).executeWith(context.tasks);
    }

    /**
     * A lease whose countdown reached zero leaves the list at once, its notes saved as a draft,
     * with the reason in plain words from the database (run out, taken, taken back, given away).
     */
    private void lapse(LeaseRow row) {
        HeldArticle a = row.article();
        letGo(row);
        BackgroundTask.of("explain a lapsed lease", () -> context.session.queue().lapsed(a))
                .onSuccess(lost -> tell(a.id(), kindOf(lost.lost()), lost.message()))
                .onFailure(failure -> {
                    tell(a.id(), Notice.Kind.ERROR, Messages.text("editor.lease.ranOut", a.title()));
                    context.failed(failure);
                })
                .executeWith(context.tasks);
    }

    /** A lease found lost (heartbeat, the list watch, giving back): it leaves the list, the notes stay, the editor is told why. */
    void lost(ReviewQueue.LostArticle lost) {
        lost(lost.article(), lost.lost(), lost.message());
    }

    /** As {@link #lost(ReviewQueue.LostArticle)}, for an article whose row may be set aside for a decision. */
    void lost(HeldArticle article, LeaseLost why, String message) {
        if (held.isGone(HeldList.key(article))) {
            return; // already let go of, and said why
        }
        held.findHeld(article.id()).ifPresent(this::letGo);
        tell(article.id(), kindOf(why), message);
    }

    /**
     * A supervisor taking an article back or giving it to someone else is part of a working day,
     * not a fault: news that fades like other news (it waits while the window is behind others, see
     * {@code NoticeBoard.fade}; the history keeps it). A lease that ran out or went to someone else
     * under the editor stays until closed, as faults do.
     */
    static Notice.Kind kindOf(LeaseLost why) {
        return why != null && (why.reason() == LostReason.FORCE_RELEASED || why.reason() == LostReason.REASSIGNED)
                ? Notice.Kind.INFO : Notice.Kind.ERROR;
    }

    private void letGo(LeaseRow row) {
        drafts.keepAfterLoss(row.id());
        dropWarning(row.id());
        held.lose(row);
    }

    private void tell(long articleId, Notice.Kind kind, String message) {
        if (held.shows(articleId)) {
            return; // held again meanwhile (Get articles while the reason was being read): no longer true
        }
        heldAgain(articleId);
        String said = NotesWords.said(message, drafts.hasNotes(articleId));
        losses.put(articleId, context.notices.post(kind, said));
        context.alertDesktop(said);
    }
}
