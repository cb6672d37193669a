package org.copydesk.ui.editor;

import java.time.Duration;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleObjectProperty;
import org.copydesk.review.HeldArticle;

/**
 * One article in "My articles", with a live countdown of its lease. The countdown is the time left
 * on the server's clock when the lease was read, minus the time elapsed since on this PC's
 * monotonic clock: neither the PC's wall clock nor its time zone plays a part.
 */
public final class LeaseRow {

    private final long id;
    private final ObjectProperty<HeldArticle> article = new SimpleObjectProperty<>();
    private final ObjectProperty<Duration> remaining = new SimpleObjectProperty<>(Duration.ZERO);
    private final BooleanProperty expiringSoon = new SimpleBooleanProperty();
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

    /** Recomputes the countdown; returns the time left. */
    Duration tick(long nowNanos) {
        Duration left = article.get().lease().remainingAtRead().minusNanos(nowNanos - readAtNanos);
        remaining.set(left.isNegative() ? Duration.ZERO : left);
        return remaining.get();
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

    public ReadOnlyBooleanProperty expiringSoonProperty() {
        return expiringSoon;
    }

    @Override
    public String toString() {
        return article.get().title();
    }
}
