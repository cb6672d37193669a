package org.copydesk.ui.editor;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import org.copydesk.review.ArticleRevision;
import org.copydesk.review.Editor;
import org.copydesk.review.HeldArticle;
import org.copydesk.review.ListWatch;
import org.copydesk.review.ReturnedArticles;
import org.copydesk.review.ReviewDecisions;
import org.copydesk.ui.common.BackgroundTask;

/**
 * The reader's side of revisions, for the view model: which revision the editor reads
 * of each article they hold, the word diff the reader marks (against the revision sent back for
 * changes, or against what they read before they took a newer one), "the writer sent a newer
 * version" with the command that shows it, and a decision refused as outdated, said next to Submit.
 *
 * <p>Nothing here polls: a newer revision is learnt from the list watch's read, which carries it
 * for every held lease ({@link ListWatch.HeldLease#newerRevision()}); the only
 * other read, {@link ReviewDecisions#newerRevision}, follows a decision refused as outdated. Every
 * method runs on the FX thread except {@link #open}, which runs inside the reader's background load.
 */
public final class RevisionReader {

    /** What opening an article found, in the background: the revision the editor reads and what changed since it was sent back. */
    record Opened(Optional<ArticleRevision> reading, Optional<RevisionDiff> returned) {
    }

    private final EditorContext context;
    private final HeldList held;
    private Consumer<ArticleRevision> showText = r -> { };

    /**
     * Per held article: the revision the editor reads, a newer one the database has, the diff
     * against the revision sent back, the diff against what they read before taking a newer one
     * (shown instead while they read that one), and a refused decision.
     */
    private final Map<Long, ArticleRevision> reading = new HashMap<>();
    private final Map<Long, Integer> newer = new HashMap<>();
    private final Map<Long, RevisionDiff> sinceSentBack = new HashMap<>();
    private final Map<Long, RevisionDiff> sinceTaken = new HashMap<>();
    private final Map<Long, String> refusals = new HashMap<>();

    private final ObjectProperty<RevisionDiff> diff = new SimpleObjectProperty<>();
    private final StringProperty newerNotice = new SimpleStringProperty("");
    private final StringProperty refusal = new SimpleStringProperty("");
    private final BooleanProperty taking = new SimpleBooleanProperty();
    private final BooleanProperty showChanges;

    /** @param showChanges the editor's remembered choice between marked changes and clean text */
    RevisionReader(EditorContext context, BooleanProperty showChanges) {
        this.context = context;
        this.held = context.held;
        this.showChanges = showChanges;
        held.selected().addListener((o, was, row) -> refresh());
    }

    /** Where a revision just taken goes: the reader shows its title, byline and body. */
    void onTaken(Consumer<ArticleRevision> reader) {
        this.showText = reader;
    }

    /**
     * In the background, as part of opening an article: the revision its lease was handed (which
     * the reader shows, even when a newer one has arrived) and, if the article came back from its
     * writer, the diff against the revision sent back with who sent it back, when, and their notes.
     */
    Opened open(HeldArticle article) {
        Optional<ArticleRevision> text = context.session.heldRevisions().handed(article.lease());
        Optional<RevisionDiff> returned = text.flatMap(t -> context.session.returnedArticles().of(article.id(), t.revision()))
                .map(this::describe);
        return new Opened(text, returned);
    }

    private RevisionDiff describe(ReturnedArticles.Returned r) {
        String by = context.session.newsroom().editor(r.sentBackBy()).map(Editor::displayName).orElse(r.sentBackBy());
        String heading = RevisionWords.returned(r.currentRevision(), r.sentBackRevision(), by, r.sentBackAt(), context.zone,
                Locale.getDefault(Locale.Category.FORMAT));
        return RevisionDiff.between(r.articleId(), r.sentBack(), r.current(), heading, r.notes());
    }

    /** The article was opened: remembers what the editor reads and which diff to mark. */
    void opened(long articleId, Opened opened) {
        opened.reading().ifPresent(r -> reading.put(articleId, r));
        opened.returned().ifPresentOrElse(d -> sinceSentBack.put(articleId, d), () -> sinceSentBack.remove(articleId));
        RevisionDiff taken = sinceTaken.get(articleId);
        if (taken != null && opened.reading().map(r -> r.revision() != taken.toRevision()).orElse(true)) {
            sinceTaken.remove(articleId);
        }
        refresh();
    }

    /**
     * From the list watch's read: the articles held whose newest revision is newer than the one
     * their lease was handed (article id to revision); the others have none.
     */
    void newerSeen(Map<Long, Integer> newest) {
        newer.clear();
        newest.forEach((id, revision) -> {
            ArticleRevision r = reading.get(id);
            if (r == null || revision > r.revision()) {
                newer.put(id, revision);
            }
        });
        for (Map<Long, ?> perArticle : List.of(reading, sinceSentBack, sinceTaken, refusals)) {
            perArticle.keySet().removeIf(id -> !held.shows(id)); // decided, given back or lost
        }
        refresh();
    }

    /**
     * A decision was refused (the database's words): said next to Submit. When a newer revision is
     * the reason, the editor is told which one at once, with the button that shows it.
     */
    void refused(LeaseRow row, String message) {
        boolean outdated = ReviewDecisions.NEWER_REVISION.equals(message);
        refusals.put(row.id(), outdated ? RevisionWords.outdated() : message);
        refresh();
        if (outdated) {
            BackgroundTask.of("newer revision", () -> context.session.decisions().newerRevision(row.article().lease()))
                    .onSuccess(revision -> {
                        revision.ifPresent(r -> newer.put(row.id(), r));
                        refresh();
                    })
                    .onFailure(context::failed)
                    .executeWith(context.tasks);
        }
    }

    /**
     * A decision still in its undo window was taken back because a newer revision of its article
     * arrived meanwhile: said next to Submit, as if the database had refused it.
     */
    void withdrawn(LeaseRow row) {
        refusals.put(row.id(), RevisionWords.outdated());
        refresh();
    }

    /** True if the database has a newer revision of this article than the one the editor reads. */
    boolean hasNewer(long articleId) {
        return newer.containsKey(articleId);
    }

    /** The editor submits again: an earlier refusal no longer stands beside Submit. */
    void submitting(long articleId) {
        refusals.remove(articleId);
        refresh();
    }

    /**
     * "Show the new version": the editor takes the newest revision (their decision is then made on
     * it); the reader shows its text and marks what changed since the revision they were reading.
     * Their notes stay as they are.
     */
    public void loadNewer() {
        LeaseRow row = held.selected().get();
        if (row == null || taking.get() || !newer.containsKey(row.id())) {
            return;
        }
        long id = row.id();
        ArticleRevision was = reading.get(id);
        BackgroundTask.of("take the newest revision", () -> context.session.decisions().takeNewestRevision(row.article().lease())
                        .map(now -> new Taken(now, was == null ? null
                                : RevisionDiff.between(id, was, now, RevisionWords.tookNewer(was.revision(), now.revision()), ""))))
                .onRunning(() -> {
                    taking.set(true);
                    held.changeStarted(); // a list watch read overlapping the take does not bring the notice back
                })
                .onFinished(() -> {
                    taking.set(false);
                    held.changeFinished();
                })
                .onSuccess(taken -> taken.ifPresentOrElse(t -> took(id, t), () -> {
                    newer.remove(id);
                    refusals.put(id, RevisionWords.noLongerHeld());
                    refresh();
                }))
                .onFailure(context::failed)
                .executeWith(context.tasks);
    }

    private record Taken(ArticleRevision revision, RevisionDiff diff) {
    }

    private void took(long id, Taken t) {
        reading.put(id, t.revision());
        newer.remove(id);
        refusals.remove(id);
        if (t.diff() != null) {
            sinceTaken.put(id, t.diff());
        }
        LeaseRow selected = held.selected().get();
        if (selected != null && selected.id() == id) {
            showText.accept(t.revision());
        }
        refresh();
    }

    /** Shows the selected article's state. */
    private void refresh() {
        LeaseRow row = held.selected().get();
        Long id = row == null ? null : row.id();
        diff.set(id == null ? null : sinceTaken.getOrDefault(id, sinceSentBack.get(id)));
        Integer revision = id == null ? null : newer.get(id);
        newerNotice.set(revision == null ? "" : RevisionWords.newerArrived(revision));
        refusal.set(id == null ? "" : refusals.getOrDefault(id, ""));
    }

    // --- what the view binds to -----------------------------------------------------------------

    /** The diff the reader marks for the selected article; null when there is none (the reader shows plain text). */
    public ReadOnlyObjectProperty<RevisionDiff> diffProperty() {
        return diff;
    }

    /** "The writer sent a newer version (revision 3). Your notes are kept."; empty when none arrived. */
    public ReadOnlyStringProperty newerNoticeProperty() {
        return newerNotice;
    }

    /** Why the last decision on the selected article was not sent (shown next to Submit); empty when it was not refused. */
    public ReadOnlyStringProperty refusalProperty() {
        return refusal;
    }

    /** True while the newest revision is being taken. */
    public ReadOnlyBooleanProperty takingProperty() {
        return taking;
    }

    /** Marked changes (true) or clean text (false); remembered in the editor's preferences. */
    public BooleanProperty showChangesProperty() {
        return showChanges;
    }
}
