package org.copydesk.ui.editor;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleObjectProperty;
import org.copydesk.review.HeldArticle;

/**
 * One article in "My articles", with a live countdown of its lease and the time left before it is
 * due. Both are measured on the server's clock as this window knows it ({@link #serverNow}): the
 * server's time when the lease was read, plus the time elapsed since on this PC's monotonic clock.
 * Neither the PC's wall clock nor its time zone plays a part, so a PC whose clock is wrong still
 * shows the server's time left.
 */
public final class LeaseRow {

    private final long id;
    private final ObjectProperty<HeldArticle> article = new SimpleObjectProperty<>();
    private final ObjectProperty<Duration> remaining = new SimpleObjectProperty<>(Duration.ZERO);
    private final BooleanProperty expiringSoon = new SimpleBooleanProperty();
    /** Time left before the article is due (negative once late); null for an article without a due time. */
    private final ObjectProperty<Duration> dueLeft = new SimpleObjectProperty<>();
    private long readAtNanos;
    private Duration leftAtRead = Duration.ZERO;
    private boolean warned;

    LeaseRow(HeldArticle article, long nowNanos) {
        this.id = article.id();
        update(article, nowNanos);
    }

    void update(HeldArticle renewed, long nowNanos) {
        article.set(renewed);
        readAtNanos = nowNanos;
        leftAtRead = renewed.lease().remainingAtRead();
        warned = false;
        expiringSoon.set(false);
        tick(nowNanos);
    }

    /** Recomputes the countdown and the time left before the article is due; returns the lease's time left. */
    Duration tick(long nowNanos) {
        LocalDateTime now = serverNow(nowNanos);
        Duration left = Duration.between(now, article.get().lease().expiresAt());
        remaining.set(left.isNegative() ? Duration.ZERO : left);
        Instant due = article.get().dueAt();
        dueLeft.set(due == null ? null : Duration.between(now.toInstant(ZoneOffset.UTC), due));
        return remaining.get();
    }

    /**
     * The server's clock now (UTC), as this window knows it: its time when the lease was last read
     * plus the monotonic time since. The one "server now" for everything the row counts down to.
     */
    LocalDateTime serverNow(long nowNanos) {
        return article.get().lease().serverTime().plusNanos(nowNanos - readAtNanos);
    }

    /**
     * True once two thirds of the time the lease had when last read have passed: a lease shorter
     * than the heartbeat interval must be renewed before the heartbeat comes round.
     */
    boolean renewalDue() {
        return remaining.get().compareTo(leftAtRead.dividedBy(3)) <= 0;
    }

    /** True the first time it is asked after the lease entered its warning window. */
    boolean shouldWarn(Duration warnBefore) {
        if (!warned && remaining.get().compareTo(warnBefore) <= 0) {
            warned = true;
            expiringSoon.set(true);
            return true;
        }
        return false;
    }

    public long id() {
        return id;
    }

    /** True if the article came back after it was sent back for changes (usually revised by its writer). */
    public boolean returned() {
        return article.get().attempts() > 0;
    }

    public HeldArticle article() {
        return article.get();
    }

    public ReadOnlyObjectProperty<HeldArticle> articleProperty() {
        return article;
    }

    public ReadOnlyObjectProperty<Duration> remainingProperty() {
        return remaining;
    }

    /** Time left before the article is due, negative once it is late; null when it has no due time. */
    public ReadOnlyObjectProperty<Duration> dueLeftProperty() {
        return dueLeft;
    }

    public ReadOnlyBooleanProperty expiringSoonProperty() {
        return expiringSoon;
    }

    @Override
    public String toString() {
        return article.get().title();
    }
}
