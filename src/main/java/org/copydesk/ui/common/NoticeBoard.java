package org.copydesk.ui.common;

import java.time.Duration;
import java.util.function.Predicate;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The notices a window shows, newest first: at most {@link #MAX} at once, the non-sticky ones
 * fading after a lifetime (see {@link Notice#sticky()}). One home for what the editor's and the
 * dashboard's view models each kept by hand; {@link NoticeArea} shows it.
 */
public final class NoticeBoard {

    public static final int MAX = 4;

    private final ObservableList<Notice> notices = FXCollections.observableArrayList();
    private final Ticker ticker;
    private final Duration lifetime;
    private boolean away;

    public NoticeBoard(Ticker ticker, Duration lifetime) {
        this.ticker = ticker;
        this.lifetime = lifetime;
    }

    public Notice post(Notice.Kind kind, String text) {
        return post(Notice.of(kind, text, ticker.nanoTime()));
    }

    /**
     * Shows {@code notice} first. The same words already on the board (a second Ctrl+Enter on a
     * send-back without notes) leave, so the board never shows one message twice.
     */
    public Notice post(Notice notice) {
        notices.removeIf(n -> n.kind() == notice.kind() && n.text().equals(notice.text()) && n.action() == null
                && notice.action() == null);
        notices.add(0, notice);
        while (notices.size() > MAX) {
            notices.remove(notices.size() - 1);
        }
        return notice;
    }

    /** A notice with a button ("Keep it", "Undo"). */
    public Notice post(Notice.Kind kind, String text, String actionLabel, Runnable action) {
        return post(Notice.withAction(kind, text, actionLabel, action, ticker.nanoTime()));
    }

    public void dismiss(Notice notice) {
        notices.remove(notice);
    }

    public void removeIf(Predicate<Notice> which) {
        notices.removeIf(which);
    }

    /** Removes the notices whose time is up; call it from the window's tick. */
    public void fade() {
        fade(true);
    }

    /**
     * As {@link #fade()}, for a window that knows whether it is in front. While it is not, only
     * successes fade ("Approved …", "Back online": done, nothing to act on, and stale by the time
     * anyone looks); other news ("Sue gave you …") would otherwise be gone before anyone could read
     * it, so it stays, and back in front it gets its whole lifetime again.
     */
    public void fade(boolean inFront) {
        long now = ticker.nanoTime();
        if (!inFront) {
            away = true;
            notices.removeIf(n -> n.kind() == Notice.Kind.SUCCESS && now - n.postedAtNanos() > lifetime.toNanos());
            return;
        }
        if (away) {
            away = false;
            notices.replaceAll(n -> n.kind() == Notice.Kind.SUCCESS ? n : n.postedAt(now));
        }
        notices.removeIf(n -> !n.sticky() && now - n.postedAtNanos() > lifetime.toNanos());
    }

    public ObservableList<Notice> list() {
        return notices;
    }
}
