package org.copydesk.ui.editor;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import org.copydesk.review.HeldArticle;
import org.copydesk.ui.common.BackgroundTask;

/**
 * "My articles" as the editor's window knows it, shared by the parts of its view model: the rows,
 * the selection, the leases let go of (never shown again), the articles given back lately, and a
 * count of this window's own changes to what it holds, so a background read that overlapped one of
 * them is not taken for news from elsewhere.
 */
final class HeldList {

    /**
     * Articles back from their writers first: they were waited for, and their writer and the editor
     * who sent them back wait on the decision; otherwise in the order the database gave them. Never
     * ahead of an article due earlier, though (the claim order's rule for work that came back): a
     * late story stays above a returned one due tonight.
     */
    static List<LeaseRow> returnedFirst(List<LeaseRow> rows) {
        List<LeaseRow> ordered = new ArrayList<>();
        rows.forEach(row -> ordered.add(placeOf(ordered, row), row));
        return ordered;
    }

    /** Where {@code row} joins {@code above}: at the end, or a returned one up past the fresh ones not due before it. */
    private static int placeOf(List<LeaseRow> above, LeaseRow row) {
        int at = above.size();
        while (row.returned() && at > 0 && !above.get(at - 1).returned() && !dueBefore(above.get(at - 1), row)) {
            at--;
        }
        return at;
    }

    private static boolean dueBefore(LeaseRow a, LeaseRow b) {
        Instant first = a.article().dueAt();
        Instant second = b.article().dueAt();
        return first != null && (second == null || first.isBefore(second));
    }

    private final ObservableList<LeaseRow> rows = FXCollections.observableArrayList();
    private final ObjectProperty<LeaseRow> selected = new SimpleObjectProperty<>();
    /** Leases ("article:token") this window has let go of (decided, given back, lost, run out). */
    private final Set<String> gone = new HashSet<>();
    /** Article id → when (monotonic nanos) this editor gave it back: "release means not me". */
    private final Map<Long, Long> givenBack = new HashMap<>();
    /** Rows taken off the list while their decision waits out its undo window: still held, not shown. */
    private final Map<Long, LeaseRow> aside = new HashMap<>();
    private long changes;
    private int changesInFlight;

    ObservableList<LeaseRow> rows() {
        return rows;
    }

    ObjectProperty<LeaseRow> selected() {
        return selected;
    }

    /** Selects the row {@code step} places from the selected one, round the end of the list; the first if none is. */
    void selectBy(int step) {
        if (rows.isEmpty()) {
            return;
        }
        int i = rows.indexOf(selected.get());
        selected.set(rows.get(i < 0 ? 0 : Math.floorMod(i + step, rows.size())));
    }

    Optional<LeaseRow> find(long articleId) {
        return rows.stream().filter(r -> r.id() == articleId).findFirst();
    }

    /** The article's row, on the list or set aside for a decision. */
    Optional<LeaseRow> findHeld(long articleId) {
        return find(articleId).or(() -> Optional.ofNullable(aside.get(articleId)));
    }

    /** True if the window knows this article as held: on the list, or set aside for a decision. */
    boolean shows(long articleId) {
        return find(articleId).isPresent() || aside.containsKey(articleId);
    }

    /** True while the article's decision waits out its undo window: held, but not on the list. */
    boolean isAside(long articleId) {
        return aside.containsKey(articleId);
    }

    static String key(HeldArticle a) {
        return key(a.id(), a.lease().token());
    }

    static String key(long articleId, long token) {
        return articleId + ":" + token;
    }

    boolean isGone(String key) {
        return gone.contains(key);
    }

    /**
     * Adds a row at the end (one back from its writer after the others that are, below any article due
     * before it); selects it if nothing is selected.
     */
    void add(LeaseRow row) {
        rows.add(placeOf(rows, row), row);
        if (selected.get() == null) {
            selected.set(row);
        }
    }

    /** Removes a row for good, moving the selection to its neighbour. */
    void remove(LeaseRow row) {
        gone.add(key(row.article()));
        aside.remove(row.id());
        takeOff(row);
    }

    /**
     * Removes a row whose lease was lost under the editor (it ran out, was taken back, went to someone
     * else): for good, and when she was reading it nothing else is selected in its place, so a click
     * meant for the lost article (Submit, a verdict) never lands on another one.
     */
    void lose(LeaseRow row) {
        boolean reading = selected.get() == row;
        remove(row);
        if (reading) {
            selected.set(null);
        }
    }

    /** Takes a row off the list while its decision can still be undone; it is still held. */
    void setAside(LeaseRow row) {
        aside.put(row.id(), row);
        takeOff(row);
    }

    /** Undo: the row set aside is back on the list, selected. */
    void bringBack(LeaseRow row) {
        if (aside.remove(row.id()) != null && !rows.contains(row)) {
            rows.add(row);
        }
        selected.set(row);
    }

    /**
     * A decision that was not sent (refused, or withdrawn for a newer revision): the row set aside is
     * back at the end of the list, and the selection stays on what the editor reads now (the row is
     * selected only if nothing is): a decision she made seconds ago does not pull her away.
     */
    void putBack(LeaseRow row) {
        if (aside.remove(row.id()) != null && !rows.contains(row)) {
            rows.add(row);
        }
        if (selected.get() == null) {
            selected.set(row);
        }
    }

    private void takeOff(LeaseRow row) {
        int i = rows.indexOf(row);
        rows.remove(row);
        if (selected.get() == row || selected.get() == null) {
            selected.set(rows.isEmpty() ? null : rows.get(Math.min(Math.max(i, 0), rows.size() - 1)));
        }
    }

    /** Replaces the rows (after Get articles), keeping the selection when its row stays. */
    void setAll(List<LeaseRow> newRows) {
        LeaseRow keep = selected.get();
        rows.setAll(newRows);
        if (keep != null && newRows.contains(keep)) {
            selected.set(keep);
        } else if (selected.get() == null || !newRows.contains(selected.get())) {
            selected.set(newRows.isEmpty() ? null : newRows.get(0));
        }
    }

    void gaveBack(long articleId, long nowNanos) {
        givenBack.put(articleId, nowNanos);
    }

    /** True if the editor gave this article back within {@code withinNanos}. */
    boolean gaveBackLately(long articleId, long nowNanos, long withinNanos) {
        Long at = givenBack.get(articleId);
        return at != null && nowNanos - at < withinNanos;
    }

    /**
     * {@code task} changes what this window holds (a claim, a decision): the change is counted, and
     * {@code busy} is true, while it is in flight.
     */
    <T> BackgroundTask<T> changing(BackgroundTask<T> task, BooleanProperty busy) {
        return task.onRunning(() -> {
            busy.set(true);
            changeStarted();
        }).onFinished(() -> {
            busy.set(false);
            changeFinished();
        });
    }

    /** This window starts changing what it holds (claim, renew, release, decision). */
    void changeStarted() {
        changes++;
        changesInFlight++;
    }

    void changeFinished() {
        changes++;
        changesInFlight--;
    }

    /** A mark to compare with {@link #unchangedSince}; only meaningful when nothing is in flight. */
    long changeMark() {
        return changesInFlight > 0 ? -1 : changes;
    }

    /** True if this window changed nothing it holds since {@code mark} was taken. */
    boolean unchangedSince(long mark) {
        return mark >= 0 && changesInFlight == 0 && changes == mark;
    }
}
