package org.copydesk.ui.editor;

import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleObjectProperty;
import org.copydesk.review.Assignment;
import org.copydesk.review.HeldArticle;
import org.copydesk.ui.common.BackgroundTask;
import org.copydesk.ui.common.Messages;
import org.copydesk.ui.common.Notice;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Taking articles and giving them back: Get articles (F5), which refreshes the leases held and
 * tops the list up to the editor's capacity; Release, which gives one back; and giving every
 * article back when the window closes or the editor signs out.
 */
final class ArticleClaims {

    private static final Logger log = LoggerFactory.getLogger(ArticleClaims.class);

    private final EditorContext context;
    private final HeldList held;
    private final DraftKeeper drafts;
    private final LeaseUpkeep upkeep;
    private final OpenArticle reader;

    private final BooleanProperty loading = new SimpleBooleanProperty();
    private final BooleanProperty everLoaded = new SimpleBooleanProperty();
    private final ObjectProperty<Optional<LocalDateTime>> nextAvailable = new SimpleObjectProperty<>(Optional.empty());
    /** Whether the person takes work in this window: from the first Get articles (a supervisor's window starts without). */
    private boolean reviewing;
    /** The release key's question on screen, and the row it asks about. */
    private Notice releaseQuestion;
    private LeaseRow releaseAsked;

    ArticleClaims(EditorContext context, DraftKeeper drafts, LeaseUpkeep upkeep, OpenArticle reader) {
        this.context = context;
        this.held = context.held;
        this.drafts = drafts;
        this.upkeep = upkeep;
        this.reader = reader;
    }

    /** Get articles / Reload (F5): refreshes the leases held and tops up to capacity. */
    void reload() {
        reviewing = true;
        if (loading.get() || context.connection.isOffline()) {
            return;
        }
        context.activity();
        List<LeaseRow> before = List.copyOf(held.rows());
        held.changing(BackgroundTask.of("get articles",
                        () -> context.session.queue().claim(context.editor.id(), context.desks(), null)), loading)
                .onSuccess(assignment -> apply(assignment, before))
                .onFailure(context::failed)
                .executeWith(context.tasks);
    }

    /** Gets articles without being asked (work waiting, the editor chose to top up), only once the person takes work here. */
    void topUp() {
        if (reviewing) {
            reload();
        }
    }

    private void apply(Assignment assignment, List<LeaseRow> before) {
        long now = context.ticker.nanoTime();
        Map<Long, LeaseRow> existing = held.rows().stream().collect(Collectors.toMap(LeaseRow::id, r -> r));
        Map<Long, HeldArticle> claimed = new LinkedHashMap<>();
        assignment.articles().stream().filter(a -> !held.isAside(a.id())) // decided, in its undo window: not shown again
                .forEach(a -> claimed.put(a.id(), a));
        // the rows kept stay where they were (the list does not jump under the editor); new ones join after them
        List<LeaseRow> rows = new ArrayList<>();
        for (LeaseRow row : held.rows()) {
            HeldArticle a = claimed.remove(row.id());
            if (a != null) {
                upkeep.renewed(row, a);
                rows.add(row);
                existing.remove(row.id());
            }
        }
        for (HeldArticle a : claimed.values()) {
            rows.add(new LeaseRow(a, now));
            upkeep.heldAgain(a.id());
        }
        held.setAll(HeldList.returnedFirst(rows));
        nextAvailable.set(assignment.nextAvailableAt());
        everLoaded.set(true);
        // Rows held before that the claim no longer returns were lost; a renew says why.
        List<LeaseRow> vanished = before.stream().filter(r -> existing.containsKey(r.id())).toList();
        upkeep.renew(vanished);
        reader.readAhead();
        if (assignment.claimed() > 0) {
            context.notices.post(Notice.Kind.INFO, Messages.text("editor.newArticles", assignment.claimed()));
        }
        upkeep.refreshed();
    }

    /**
     * The release key: a key is pressed by mistake more easily than a button is clicked, and a
     * release cannot be taken back (the article may be someone else's a second later). So the key
     * asks, in a notice with "Give it back"; the same key again, on the same article while the
     * question shows, answers it.
     */
    void askToRelease() {
        LeaseRow row = held.selected().get();
        if (releaseQuestion != null && context.notices.list().contains(releaseQuestion) && releaseAsked == row) {
            context.notices.dismiss(releaseQuestion);
            releaseQuestion = null;
            releaseSelected();
            return;
        }
        if (releaseQuestion != null) {
            context.notices.dismiss(releaseQuestion);
        }
        releaseAsked = row;
        releaseQuestion = context.notices.post(Notice.Kind.INFO, Messages.text("editor.release.ask", row.article().title()),
                Messages.text("editor.release.giveBack"), () -> {
                    if (held.selected().get() == row) {
                        releaseSelected();
                    }
                });
    }

    /** Gives the selected article back to the queue; the notes stay as a draft. */
    void releaseSelected() {
        LeaseRow row = held.selected().get();
        context.activity();
        drafts.flush(row.id());
        BackgroundTask.of("release", () -> context.session.queue().release(row.article()))
                .onRunning(held::changeStarted)
                .onFinished(held::changeFinished)
                .onSuccess(lost -> {
                    held.gaveBack(row.id(), context.ticker.nanoTime());
                    lost.ifPresentOrElse(upkeep::lost, () -> {
                        held.remove(row);
                        context.notices.post(Notice.Kind.INFO, Messages.text("editor.gaveBack", row.article().title()));
                    });
                })
                .onFailure(context::failed)
                .executeWith(context.tasks);
    }

    /**
     * Before the window closes or the editor signs out: gives every article held back to the queue
     * (drafts are saved first and kept), then runs {@code then} on the FX thread, whatever happened
     * to each. Offline nothing can be given back: the leases run out as after a crash.
     */
    void giveBackAll(Runnable then) {
        List<LeaseRow> rows = List.copyOf(held.rows());
        if (rows.isEmpty() || context.connection.isOffline()) {
            then.run();
            return;
        }
        drafts.flushAll();
        BackgroundTask.of("give back every article", () -> {
                    int given = 0;
                    for (LeaseRow row : rows) {
                        if (context.session.queue().release(row.article()).isEmpty()) {
                            given++;
                        }
                    }
                    return given;
                })
                .onRunning(held::changeStarted)
                .onFinished(() -> {
                    held.changeFinished();
                    then.run();
                })
                .onSuccess(given -> rows.forEach(row -> {
                    held.gaveBack(row.id(), context.ticker.nanoTime());
                    held.remove(row);
                }))
                .onFailure(failure -> log.warn("Could not give back every article; the rest run out: {}", failure.toString()))
                .executeWith(context.tasks);
    }

    /** True while Get articles is under way. */
    ReadOnlyBooleanProperty loadingProperty() {
        return loading;
    }

    /** True once Get articles has come back at least once (before that, an empty list means nothing yet). */
    ReadOnlyBooleanProperty everLoadedProperty() {
        return everLoaded;
    }

    /** When the next article becomes available on the editor's desks, as the last Get articles said. */
    ReadOnlyObjectProperty<Optional<LocalDateTime>> nextAvailableProperty() {
        return nextAvailable;
    }
}
