package org.copydesk.ui.editor;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import javafx.beans.property.BooleanProperty;
import org.copydesk.review.DecisionOutcome;
import org.copydesk.review.DecisionRequest;
import org.copydesk.review.ReviewSession;
import org.copydesk.review.Verdict;
import org.copydesk.ui.common.BackgroundTask;
import org.copydesk.ui.common.Messages;
import org.copydesk.ui.common.Notice;
import org.copydesk.ui.common.NoticeBoard;
import org.copydesk.ui.common.TaskExecutor;
import org.copydesk.ui.common.Ticker;

/**
 * Decisions on their way to the database. A decision leaves the list at once and is sent after
 * {@link #UNDO_WINDOW}, while its notice offers Undo. Undo rather than "Are you sure?": deciding is
 * what an editor does all day, a question asked hundreds of times is answered without reading, and
 * a few seconds to take back a slip of the key cost nothing. Decisions still waiting are sent when
 * the window closes; one that could not be sent brings its article back.
 */
final class DecisionQueue {

    static final Duration UNDO_WINDOW = Duration.ofSeconds(5);

    /** A decision waiting out its undo window. */
    private record Pending(LeaseRow row, DecisionRequest request, long dueNanos, Notice notice) {
    }

    private final ReviewSession services;
    private final TaskExecutor tasks;
    private final Ticker ticker;
    private final HeldList held;
    private final DraftKeeper drafts;
    private final NoticeBoard notices;
    private final BooleanProperty sending;
    private final Consumer<Throwable> onFailure;
    private final List<Pending> pending = new ArrayList<>();
    private BiConsumer<LeaseRow, String> refusedHere;

    DecisionQueue(ReviewSession services, TaskExecutor tasks, Ticker ticker, HeldList held, DraftKeeper drafts,
                  NoticeBoard notices, BooleanProperty sending, Consumer<Throwable> onFailure) {
        this.services = services;
        this.tasks = tasks;
        this.ticker = ticker;
        this.held = held;
        this.drafts = drafts;
        this.notices = notices;
        this.sending = sending;
        this.onFailure = onFailure;
    }

    /** The editor decided: the article leaves the list now; the decision is sent after the undo window. */
    void decide(LeaseRow row, DecisionRequest request) {
        held.setAside(row);
        Notice notice = notices.post(Notice.Kind.SUCCESS, said(request.verdict(), row.article().title(), false),
                Messages.text("editor.decision.undo"), () -> undo(row.id()));
        pending.add(new Pending(row, request, ticker.nanoTime() + UNDO_WINDOW.toNanos(), notice));
    }

    void undo(long articleId) {
        pending.stream().filter(p -> p.row().id() == articleId).findFirst().ifPresent(p -> {
            pending.remove(p);
            notices.dismiss(p.notice());
            held.bringBack(p.row());
            notices.post(Notice.Kind.INFO, Messages.text("editor.decision.undone", p.row().article().title()));
        });
    }

    /** Sends the decisions whose undo window has passed ({@code all}: every one, when the window closes). */
    void sendDue(boolean all) {
        long now = ticker.nanoTime();
        for (Pending p : List.copyOf(pending)) {
            if (all || now >= p.dueNanos()) {
                pending.remove(p);
                send(p);
            }
        }
    }

    private void send(Pending p) {
        LeaseRow row = p.row();
        DecisionRequest request = p.request();
        notices.dismiss(p.notice());
        held.changing(BackgroundTask.of("submit decision", () -> services.decisions().submit(request)), sending)
                .onSuccess(outcome -> sent(row, request, outcome))
                .onFailure(failure -> {
                    held.bringBack(row); // not sent: the article is the editor's to submit again (same request id)
                    onFailure.accept(failure);
                })
                .executeWith(tasks);
    }

    private void sent(LeaseRow row, DecisionRequest request, DecisionOutcome outcome) {
        if (outcome instanceof DecisionOutcome.Recorded || outcome instanceof DecisionOutcome.AlreadyRecorded) {
            drafts.decided(row.id());
            boolean auto = outcome instanceof DecisionOutcome.Recorded r && r.autoQuarantined();
            held.remove(row);
            notices.post(Notice.Kind.SUCCESS, said(request.verdict(), row.article().title(), auto));
        } else if (outcome instanceof DecisionOutcome.Lost lost) {
            drafts.notDecided(row.id(), true);
            held.remove(row);
            notices.post(Notice.Kind.ERROR, lost.message());
        } else if (outcome instanceof DecisionOutcome.Refused refused) {
            drafts.notDecided(row.id(), false);
            held.bringBack(row);
            if (refusedHere != null) {
                refusedHere.accept(row, refused.message());
            } else {
                notices.post(Notice.Kind.WARNING, refused.message());
            }
        }
    }

    /** Where a refusal is said instead of a notice: next to Submit, for the article it concerns (issue 13). */
    void onRefused(BiConsumer<LeaseRow, String> where) {
        this.refusedHere = where;
    }

    /** "Approved “Budget vote”." ({@code autoQuarantined}: "…(sent back too often: it goes to quarantine)."). */
    private static String said(Verdict verdict, String title, boolean autoQuarantined) {
        return Messages.text(autoQuarantined ? "editor.decision.doneAutoQuarantined" : "editor.decision.done",
                VerdictWords.done(verdict), title);
    }
}
