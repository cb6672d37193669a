package org.copydesk.ui.editor;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import org.copydesk.review.ArticleDetail;
import org.copydesk.review.ArticleRevision;
import org.copydesk.review.ArticleStage;
import org.copydesk.review.Drafts;
import org.copydesk.review.HeldArticle;
import org.copydesk.review.HistoryEntry;
import org.copydesk.ui.common.BackgroundTask;
import org.copydesk.ui.common.Messages;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the reader shows of the selected article: title, byline, the meta line, the text (the
 * revision the editor was handed) and its history. Opening an article reads its text, history and
 * draft off the FX thread; the texts of the other held articles are read ahead in one query after
 * Get articles, so the next article after a decision shows at once (the opening read still has the
 * last word).
 */
final class OpenArticle {

    private static final Logger log = LoggerFactory.getLogger(OpenArticle.class);

    private final EditorContext context;
    private final HeldList held;
    private final DraftKeeper drafts;
    private final RevisionReader revisions;
    private final StageChoices stages;

    private final StringProperty title = new SimpleStringProperty("");
    private final StringProperty byline = new SimpleStringProperty("");
    private final StringProperty meta = new SimpleStringProperty("");
    private final StringProperty body = new SimpleStringProperty("");
    private final ObservableList<HistoryEntry> history = FXCollections.observableArrayList();
    private final ObservableList<String> historyLines = FXCollections.observableArrayList();
    /** The texts of the held articles read so far (read ahead or opened), by article id. */
    private final Map<Long, String> texts = new HashMap<>();

    OpenArticle(EditorContext context, DraftKeeper drafts, RevisionReader revisions, StageChoices stages) {
        this.context = context;
        this.held = context.held;
        this.drafts = drafts;
        this.revisions = revisions;
        this.stages = stages;
        revisions.onTaken(this::showRevision);
    }

    /** Shows {@code row} (null: nothing selected) at once from what is known, then as read. */
    void show(LeaseRow row) {
        if (row == null) {
            title.set("");
            byline.set("");
            meta.set("");
            body.set("");
            history.clear();
            historyLines.clear();
            return;
        }
        HeldArticle a = row.article();
        title.set(a.title());
        byline.set(a.byline() == null ? "" : Messages.text("editor.byline", a.byline()));
        meta.set(describeMeta(a));
        body.set(texts.getOrDefault(row.id(), Messages.text("editor.loading")));
        long id = row.id();
        boolean staged = a.stage() != null; // a desk without stages reads nothing more than it always did
        BackgroundTask.of("open article", () -> new Opened(context.session.queue().article(id),
                        context.session.history().of(id), context.session.drafts().load(id, context.editor.id()), revisions.open(a),
                        staged ? context.session.stages().of(id) : Optional.empty()))
                .onSuccess(opened -> {
                    if (held.selected().get() == null || held.selected().get().id() != id) {
                        return; // the editor moved on meanwhile
                    }
                    opened.detail().ifPresent(d -> {
                        texts.put(id, d.body());
                        body.set(d.body());
                    });
                    opened.revision().reading().ifPresent(this::showRevision); // the revision the lease was handed
                    revisions.opened(id, opened.revision());
                    history.setAll(opened.history());
                    historyLines.setAll(HistoryLines.of(opened.history(), context.zone));
                    drafts.restore(id, opened.draft());
                    stages.opened(id, opened.stage());
                })
                .onFailure(context::failed)
                .executeWith(context.tasks);
    }

    /** The desks' names changed (or became known): the meta line says the desk's name now. */
    void desksChanged() {
        LeaseRow row = held.selected().get();
        if (row != null) {
            meta.set(describeMeta(row.article()));
        }
    }

    /** Reads the texts of the held articles not read yet, in one query. */
    void readAhead() {
        List<Long> unread = held.rows().stream().map(LeaseRow::id).filter(id -> !texts.containsKey(id)).toList();
        if (unread.isEmpty()) {
            return;
        }
        BackgroundTask.of("read ahead", () -> context.session.queue().articles(unread))
                .onSuccess(read -> read.forEach((id, detail) -> {
                    if (held.shows(id) && !texts.containsKey(id)) { // an opening read meanwhile is newer
                        texts.put(id, detail.body());
                    }
                }))
                .onFailure(failure -> log.debug("Could not read ahead: {}", failure.toString())) // opening reads it anyway
                .executeWith(context.tasks);
    }

    /** Forgets the texts of articles no longer held. */
    void keepOnly(Set<Long> heldIds) {
        texts.keySet().retainAll(heldIds);
    }

    /** The reader shows this revision's text (the one the editor's decision is made on). */
    void showRevision(ArticleRevision r) {
        title.set(r.title());
        byline.set(r.byline() == null ? "" : Messages.text("editor.byline", r.byline()));
        body.set(r.body());
    }

    private String describeMeta(HeldArticle a) {
        return Messages.text(a.attempts() > 0 ? "editor.meta.sentBack" : "editor.meta", context.deskName(a.desk()), a.priority(),
                a.attempts(), a.externalId());
    }

    private record Opened(Optional<ArticleDetail> detail, List<HistoryEntry> history, Optional<Drafts.Draft> draft,
                          RevisionReader.Opened revision, Optional<ArticleStage> stage) {
    }

    ReadOnlyStringProperty title() {
        return title;
    }

    ReadOnlyStringProperty byline() {
        return byline;
    }

    ReadOnlyStringProperty meta() {
        return meta;
    }

    ReadOnlyStringProperty body() {
        return body;
    }

    ObservableList<HistoryEntry> history() {
        return history;
    }

    ObservableList<String> historyLines() {
        return historyLines;
    }
}
