package org.copydesk.ui.editor;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.beans.binding.StringBinding;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.value.ChangeListener;
import javafx.beans.value.ObservableValue;
import org.copydesk.review.DecisionOutcome;
import org.copydesk.review.DecisionRequest;
import org.copydesk.review.ReviewDecisions;
import org.copydesk.review.Verdict;
import org.copydesk.ui.common.BackgroundTask;
import org.copydesk.ui.common.Messages;
import org.copydesk.ui.common.Notice;

/**
 * Deciding: whether Submit can be pressed and why not, and decisions on their way to the
 * database. A decision leaves the list at once and is sent after {@link #UNDO_WINDOW}, while its
 * notice offers Undo. Undo rather than "Are you sure?": deciding is what an editor does all day, a
 * question asked hundreds of times is answered without reading, and a few seconds to take back a
 * slip of the key cost nothing. Decisions still waiting are sent when the window closes; one that
 * could not be sent brings its article back.
 */
final class DecisionQueue {

    static final Duration UNDO_WINDOW = Duration.ofSeconds(5);

    /** A decision waiting out its undo window. */
    private record Pending(LeaseRow row, DecisionRequest request, long dueNanos, Notice notice) {
    }

    private final EditorContext context;
    private final HeldList held;
    private final DraftKeeper drafts;
    private final LeaseUpkeep upkeep;
    private final RevisionReader revisions;
    private final StageChoices stages;
    private final List<Pending> pending = new ArrayList<>();
    private final BooleanProperty sending = new SimpleBooleanProperty();
    private final StringBinding whyNoSubmit;
    private final BooleanBinding canSubmit;

    DecisionQueue(EditorContext context, DraftKeeper drafts, LeaseUpkeep upkeep, RevisionReader revisions, StageChoices stages) {
        this.context = context;
        this.stages = stages;
        this.held = context.held;
        this.drafts = drafts;
        this.upkeep = upkeep;
        this.revisions = revisions;
        var selected = held.selected();
        var verdict = drafts.verdict();
        var notes = drafts.notes();
        var offline = context.connection.offlineProperty();
        var newer = revisions.newerNoticeProperty();
        var refusal = revisions.refusalProperty();
        // Not held up while an earlier decision is being sent: Submit only queues this one (it is sent
        // after its undo window), and an editor deciding quickly pressed Ctrl+Enter into that moment.
        whyNoSubmit = Bindings.createStringBinding(() -> whyNoSubmit(selected.get(), verdict.get(), notes.get(), offline.get(),
                !newer.get().isEmpty(), !refusal.get().isEmpty()), selected, verdict, notes, offline, newer, refusal);
        // a decision on a revision known to be outdated would only come back refused: it is refused here
        canSubmit = Bindings.createBooleanBinding(() -> whyNoSubmit.get().isEmpty() && newer.get().isEmpty(),
                whyNoSubmit, newer);
    }

    /**
     * Why Submit is disabled, in words for its tooltip and the line under it; empty when it is
     * enabled, or when the line beside it already says why (a decision refused as outdated).
     */
    private static String whyNoSubmit(LeaseRow row, Verdict v, String text, boolean offline, boolean newerArrived,
                                      boolean refusalShown) {
        if (row == null) {
            return Messages.text("editor.whyNoSubmit.noArticle");
        } else if (offline) {
            return Messages.text("editor.whyNoSubmit.offline");
        } else if (newerArrived) {
            return refusalShown ? "" : Messages.text("editor.whyNoSubmit.newerVersion");
        } else if (v == null) {
            return Messages.text("editor.whyNoSubmit.noDecision");
        } else if (v.needsNotes() && (text == null || text.isBlank())) {
            return Messages.text("editor.whyNoSubmit.needsNote", VerdictWords.label(v));
        }
        return "";
    }

    /**
     * Submits the chosen decision on the selected article: it leaves the list at once and is sent
     * after the undo window. When it cannot be submitted, a decision chosen without its note says
     * so in a notice, which goes once the reason no longer holds.
     */
    void submit() {
        if (!canSubmit.get()) {
            if (held.selected().get() != null && drafts.verdict().get() != null && !context.connection.isOffline()
                    && !revisions.hasNewer(held.selected().get().id())) {
                Notice why = context.notices.post(Notice.Kind.WARNING, whyNoSubmit.get());
                whyNoSubmit.addListener(new ChangeListener<String>() {
                    @Override
                    public void changed(ObservableValue<? extends String> o, String was, String now) {
                        context.notices.dismiss(why);
                        o.removeListener(this);
                    }
                });
            }
            return;
        }
        context.activity();
        LeaseRow row = held.selected().get();
        revisions.submitting(row.id());
        Verdict verdict = drafts.verdict().get();
        DecisionRequest request = drafts.request(row, stages.toStage(verdict), stages.ask(verdict));
        held.setAside(row);
        Notice notice = context.notices.post(Notice.Kind.SUCCESS, said(request.verdict(), row.article().title(), false),
                Messages.text("editor.decision.undo"), () -> undo(row.id()));
        pending.add(new Pending(row, request, context.ticker.nanoTime() + UNDO_WINDOW.toNanos(), notice));
    }

    /** Undo: the decision is not sent; the article is back, selected, with its decision and notes. */
    void undo(long articleId) {
        pending.stream().filter(p -> p.row().id() == articleId).findFirst().ifPresent(p -> {
            pending.remove(p);
            context.notices.dismiss(p.notice());
            held.bringBack(p.row());
            context.notices.post(Notice.Kind.INFO, Messages.text("editor.decision.undone", p.row().article().title()));
        });
    }

    /** Undo by its key: the decision made last and not sent yet is taken back. False if none waits. */
    boolean undoLast() {
        if (pending.isEmpty()) {
            return false;
        }
        undo(pending.get(pending.size() - 1).row().id());
        return true;
    }

    /**
     * Sends the decisions whose undo window has passed ({@code all}: every one, when the window
     * closes). One whose article has a newer revision by now is not sent: it would be refused.
     */
    void sendDue(boolean all) {
        long now = context.ticker.nanoTime();
        for (Pending p : List.copyOf(pending)) {
            if (revisions.hasNewer(p.row().id())) {
                pending.remove(p);
                withdraw(p);
            } else if (all || now >= p.dueNanos()) {
                pending.remove(p);
                send(p);
            }
        }
    }

    /** A newer revision arrived during the undo window: the article is back, with the reason beside Submit. */
    private void withdraw(Pending p) {
        context.notices.dismiss(p.notice());
        notSent(p.row(), true);
        revisions.withdrawn(p.row());
    }

    /**
     * The decision was not sent (withdrawn or refused): its notes are kept and the article is back on
     * the list, but the selection stays where the editor reads now. When she reads another article,
     * a notice says at once what happened to this one (the green "Approved …" she saw is gone), with
     * a button that opens it; on the article itself, the line beside Submit says it.
     */
    private void notSent(LeaseRow row, boolean outdated) {
        drafts.notDecided(row.id());
        held.putBack(row);
        if (held.selected().get() != row) {
            String title = row.article().title();
            context.notices.post(Notice.Kind.WARNING, NotesWords.said(outdated ? Messages.text("editor.decision.notSentNewer", title)
                            : Messages.text("editor.decision.notSentRefused", title), drafts.hasNotes(row.id())),
                    Messages.text("editor.decision.open"), () -> held.selected().set(row));
        }
    }

    private void send(Pending p) {
        LeaseRow row = p.row();
        DecisionRequest request = p.request();
        context.notices.dismiss(p.notice());
        held.changing(BackgroundTask.of("submit decision", () -> context.session.decisions().submit(request)), sending)
                .onSuccess(outcome -> sent(row, request, outcome))
                .onFailure(failure -> {
                    held.bringBack(row); // not sent: the article is the editor's to submit again (same request id)
                    context.failed(failure);
                })
                .executeWith(context.tasks);
    }

    private void sent(LeaseRow row, DecisionRequest request, DecisionOutcome outcome) {
        if (outcome instanceof DecisionOutcome.Recorded || outcome instanceof DecisionOutcome.AlreadyRecorded) {
            drafts.decided(row.id());
            stages.decided(row.id());
            boolean auto = outcome instanceof DecisionOutcome.Recorded r && r.autoQuarantined();
            held.remove(row);
            context.notices.post(Notice.Kind.SUCCESS, said(request.verdict(), row.article().title(), auto));
        } else if (outcome instanceof DecisionOutcome.Lost lost) {
            upkeep.lost(row.article(), lost.lost(), lost.message());
        } else if (outcome instanceof DecisionOutcome.Refused refused) {
            notSent(row, ReviewDecisions.NEWER_REVISION.equals(refused.message()));
            // said next to Submit, for the article it concerns; four eyes in words that say what to do
            revisions.refused(row, ReviewDecisions.NEWER_REVISION.equals(refused.message()) ? refused.message()
                    : stages.refusal(refused.message()));
        }
    }

    /** "Approved “Budget vote”." ({@code autoQuarantined}: "…(sent back too often: it goes to quarantine)."). */
    private static String said(Verdict verdict, String title, boolean autoQuarantined) {
        return Messages.text(autoQuarantined ? "editor.decision.doneAutoQuarantined" : "editor.decision.done",
                VerdictWords.done(verdict), title);
    }

    StringBinding whyNoSubmit() {
        return whyNoSubmit;
    }

    BooleanBinding canSubmit() {
        return canSubmit;
    }

    /** True while a decision is being sent. */
    ReadOnlyBooleanProperty sending() {
        return sending;
    }
}
