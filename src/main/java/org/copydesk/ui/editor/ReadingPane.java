package org.copydesk.ui.editor;

import java.time.ZoneId;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import org.copydesk.review.ArticleDetail;
import org.copydesk.review.ArticleRevision;
import org.copydesk.review.Drafts;
import org.copydesk.review.HeldArticle;
import org.copydesk.review.HistoryEntry;
import org.copydesk.review.ReviewSession;
import org.copydesk.ui.common.BackgroundTask;
import org.copydesk.ui.common.Messages;
import org.copydesk.ui.common.TaskExecutor;

/**
 * What the reader shows of the selected article: title, byline, the meta line, the text (the
 * revision the editor was handed) and its history. Opening an article reads its text, history and
 * draft off the FX thread; the texts of the other held articles are read ahead in one query after
 * Get articles, so the next article after a decision shows at once (the opening read still has the
 * last word).
 */
final class ReadingPane {

    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(ReadingPane.class);

    private final ReviewSession services;
    private final String editorId;
    private final TaskExecutor tasks;
    private final HeldList held;
    private final DraftKeeper drafts;
    private final RevisionReader revisions;
    private final ZoneId zone;
    private final Function<String, String> deskName;
    private final Consumer<Throwable> onFailure;

    private final StringProperty title = new SimpleStringProperty("");
    private final StringProperty byline = new SimpleStringProperty("");
    private final StringProperty meta = new SimpleStringProperty("");
    private final StringProperty body = new SimpleStringProperty("");
    private final ObservableList<HistoryEntry> history = FXCollections.observableArrayList();
    private final ObservableList<String> historyLines = FXCollections.observableArrayList();
    /** The texts of the held articles read so far (read ahead or opened), by article id. */
    private final Map<Long, String> texts = new HashMap<>();

    ReadingPane(ReviewSession services, String editorId, TaskExecutor tasks, HeldList held, DraftKeeper drafts,
                RevisionReader revisions, ZoneId zone, Function<String, String> deskName, Consumer<Throwable> onFailure) {
        this.services = services;
        this.editorId = editorId;
        this.tasks = tasks;
        this.held = held;
        this.drafts = drafts;
        this.revisions = revisions;
        this.zone = zone;
        this.deskName = deskName;
        this.onFailure = onFailure;
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
        BackgroundTask.of("open article", () -> new Opened(services.queue().article(id), services.history().of(id),
                        services.drafts().load(id, editorId), revisions.open(a)))
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
                    historyLines.setAll(HistoryLines.of(opened.history(), zone));
                    drafts.restore(id, opened.draft());
                })
                .onFailure(onFailure)
                .executeWith(tasks);
    }

    /** Reads the texts of the held articles not read yet, in one query. */
    void readAhead() {
        List<Long> unread = held.rows().stream().map(LeaseRow::id).filter(id -> !texts.containsKey(id)).toList();
        if (unread.isEmpty()) {
            return;
        }
        BackgroundTask.of("read ahead", () -> services.queue().articles(unread))
                .onSuccess(read -> read.forEach((id, detail) -> {
                    if (held.shows(id) && !texts.containsKey(id)) { // an opening read meanwhile is newer
                        texts.put(id, detail.body());
                    }
                }))
                .onFailure(failure -> log.debug("Could not read ahead: {}", failure.toString())) // opening reads it anyway
                .executeWith(tasks);
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
        return Messages.text(a.attempts() > 0 ? "editor.meta.sentBack" : "editor.meta", deskName.apply(a.desk()), a.priority(),
                a.attempts(), a.externalId());
    }

    private record Opened(Optional<ArticleDetail> detail, List<HistoryEntry> history, Optional<Drafts.Draft> draft,
                          RevisionReader.Opened revision) {
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
