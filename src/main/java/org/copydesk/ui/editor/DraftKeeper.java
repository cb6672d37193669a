package org.copydesk.ui.editor;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import org.copydesk.review.DecisionRequest;
import org.copydesk.review.Drafts;
import org.copydesk.review.Verdict;
import org.copydesk.ui.common.BackgroundTask;
import org.copydesk.ui.common.Formats;
import org.copydesk.ui.common.Messages;

/**
 * The editor's decision and notes per article: what the review panel shows for the selected
 * article, saved to the database a moment after typing stops (and whenever the editor moves on or
 * the lease is lost), kept on this computer while the database is away, and restored from the
 * database in a new session. Nothing typed is ever dropped by a failure.
 */
final class DraftKeeper {

    /** The heading of notes handed over with an article (db/routines/R__hand_over_notes.sql): whose they are. */
    private static final Pattern HANDED_OVER = Pattern.compile("Notes from (.+?), \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC:\n");

    /**
     * The notes for one article as typed, kept here until the database has them. Its saves are
     * numbered as they are asked for; a save that reaches the database after a later one (it hung
     * on a frozen server and was tried again once the server answered) is dropped, so the database
     * ends with the last text typed.
     */
    private static final class LocalDraft {
        Verdict verdict;
        String notes = "";
        boolean dirty;
        long editedAtNanos;
        UUID pendingRequest;
        long savesAsked;
        /** The number of the last save written; read and written by the background saves, under this draft's lock. */
        long saveWritten;
    }

    private final EditorContext context;
    private final HeldList held;

    private final ObjectProperty<Verdict> verdict = new SimpleObjectProperty<>();
    private final StringProperty notes = new SimpleStringProperty("");
    private final StringProperty status = new SimpleStringProperty("");
    private final Map<Long, LocalDraft> drafts = new HashMap<>();
    private boolean showing;

    DraftKeeper(EditorContext context) {
        this.context = context;
        this.held = context.held;
        notes.addListener((obs, old, text) -> onTyped());
        verdict.addListener((obs, old, v) -> onTyped());
    }

    /** The review panel now shows {@code row} (null: nothing selected); the previous article's draft is saved. */
    void show(LeaseRow old, LeaseRow row) {
        if (old != null) {
            flush(old.id());
        }
        LocalDraft local = row == null ? null : drafts.get(row.id());
        quietly(local == null ? null : local.verdict, local == null ? "" : local.notes);
        say(local != null && local.dirty ? "editor.draft.notSaved" : null, local);
    }

    /** The database's draft for the article just opened, used unless the editor has typed meanwhile. */
    void restore(long articleId, Optional<Drafts.Draft> saved) {
        LocalDraft local = drafts.get(articleId);
        if (saved.isEmpty() || (local != null && (local.dirty || !local.notes.isEmpty()))) {
            return;
        }
        quietly(saved.get().verdict(), saved.get().notes());
        LocalDraft d = draftFor(articleId);
        d.verdict = saved.get().verdict();
        d.notes = saved.get().notes();
        status.set(d.notes.isBlank() ? "" // a decision chosen, no notes: nothing that reads as a draft
                : restoredWords(saved.get()));
    }

    /**
     * "Draft restored from 14:02", or, for notes another editor wrote and the database handed over
     * with the article (a reassignment or a force release: they start with the heading the routine
     * hand_over_notes writes), whose they are: "Draft restored" read as the editor's own work.
     */
    private String restoredWords(Drafts.Draft saved) {
        Matcher heading = HANDED_OVER.matcher(saved.notes());
        return heading.lookingAt() ? Messages.text("editor.draft.handedOver", heading.group(1))
                : Messages.text("editor.draft.restored", Formats.localDayClock(saved.savedAt(), context.zone));
    }

    /**
     * The line under the notes ({@code key} in the bundle, null for none); nothing for empty notes:
     * "Not saved yet" or "Draft saved" about a blank box reads as a fault.
     */
    private void say(String key, LocalDraft d) {
        status.set(key == null || d == null || d.notes.isBlank() ? "" : Messages.text(key));
    }

    private void quietly(Verdict v, String text) {
        showing = true;
        try {
            verdict.set(v);
            notes.set(text);
        } finally {
            showing = false;
        }
    }

    private void onTyped() {
        LeaseRow row = held.selected().get();
        if (showing || row == null) {
            return;
        }
        LocalDraft d = draftFor(row.id());
        if (Objects.equals(d.verdict, verdict.get()) && Objects.equals(d.notes, notes.get())) {
            return;
        }
        d.verdict = verdict.get();
        d.notes = notes.get() == null ? "" : notes.get();
        d.dirty = true;
        d.pendingRequest = null; // a changed decision is a new submission
        d.editedAtNanos = context.ticker.nanoTime();
        say(context.connection.isOffline() ? "editor.draft.keptOffline" : "editor.draft.notSaved", d);
        context.activity();
    }

    /** Every tick: saves drafts the editor stopped typing in. */
    void autosave() {
        long now = context.ticker.nanoTime();
        long delay = context.settings.autosaveDelay().toNanos();
        for (Map.Entry<Long, LocalDraft> e : Map.copyOf(drafts).entrySet()) {
            if (e.getValue().dirty && now - e.getValue().editedAtNanos >= delay) {
                flush(e.getKey());
            }
        }
    }

    void flushAll() {
        Map.copyOf(drafts).keySet().forEach(this::flush);
    }

    void flush(long articleId) {
        LocalDraft d = drafts.get(articleId);
        if (d == null || !d.dirty || context.connection.isOffline()) {
            return;
        }
        d.dirty = false;
        Verdict v = d.verdict;
        String text = d.notes;
        long number = ++d.savesAsked;
        if (isShown(articleId)) {
            say("editor.draft.saving", d);
        }
        BackgroundTask.of("save draft", () -> {
            synchronized (d) {
                if (number > d.saveWritten) {
                    context.session.drafts().save(articleId, context.editor.id(), v, text);
                    d.saveWritten = number;
                }
            }
        })
                .onSuccess(ok -> {
                    if (isShown(articleId)) {
                        say(d.dirty ? "editor.draft.notSaved" : "editor.draft.saved", d);
                    }
                })
                .onFailure(failure -> {
                    d.dirty = true; // keep it; it is saved when the database is back
                    context.failed(failure);
                })
                .executeWith(context.tasks);
    }

    private boolean isShown(long articleId) {
        return held.selected().get() != null && held.selected().get().id() == articleId;
    }

    /** The lease is gone (run out, taken): whatever was typed is saved as a draft, never a pending decision. */
    void keepAfterLoss(long articleId) {
        LocalDraft d = drafts.get(articleId);
        if (d != null) {
            d.dirty = d.dirty || !d.notes.isEmpty() || d.verdict != null;
            d.pendingRequest = null;
            flush(articleId);
        }
    }

    /**
     * The decision to send for the selected article: one request id per submission, reused on a
     * retry; on a desk with stages, the earlier stage a send-back goes to and the stages asked for.
     */
    DecisionRequest request(LeaseRow row, String toStage, java.util.List<String> askStages) {
        LocalDraft d = draftFor(row.id());
        d.verdict = verdict.get();
        d.notes = notes.get();
        if (d.pendingRequest == null) {
            d.pendingRequest = UUID.randomUUID(); // so a retried submission is never applied twice
        }
        return new DecisionRequest(d.pendingRequest, row.id(), row.article().lease(), d.verdict, d.notes, toStage, askStages);
    }

    /** True if the editor typed notes on the article (kept locally or as a draft in the database). */
    boolean hasNotes(long articleId) {
        LocalDraft d = drafts.get(articleId);
        return d != null && d.notes != null && !d.notes.isBlank();
    }

    void decided(long articleId) {
        drafts.remove(articleId);
    }

    /** The submission was refused: a later one is a new request. */
    void notDecided(long articleId) {
        draftFor(articleId).pendingRequest = null;
    }

    private LocalDraft draftFor(long articleId) {
        return drafts.computeIfAbsent(articleId, k -> new LocalDraft());
    }

    ObjectProperty<Verdict> verdict() {
        return verdict;
    }

    StringProperty notes() {
        return notes;
    }

    StringProperty status() {
        return status;
    }
}
