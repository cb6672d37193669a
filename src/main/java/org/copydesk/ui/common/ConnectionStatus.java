package org.copydesk.ui.common;

import java.time.Duration;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleStringProperty;

/**
 * Whether a window can reach the database, the offline banner's words, and when to try again:
 * the first retry after {@code firstDelay}, each further one twice as late, at most
 * {@code maxDelay}. One home for what both windows did by hand; {@link Chrome#offlineBanner} shows it.
 */
public final class ConnectionStatus {

    private final SimpleBooleanProperty offline = new SimpleBooleanProperty();
    private final SimpleStringProperty banner = new SimpleStringProperty("");
    private final Ticker ticker;
    private final Duration firstDelay;
    private final Duration maxDelay;
    private final String whatIsKept;
    private Duration delay;
    private long nextProbeNanos;
    private boolean probing;
    private boolean answering = true;

    /** @param whatIsKept the sentence after "Copydesk cannot reach the database." ("Your notes are kept on this computer;") */
    public ConnectionStatus(Ticker ticker, Duration firstDelay, Duration maxDelay, String whatIsKept) {
        this.ticker = ticker;
        this.firstDelay = firstDelay;
        this.maxDelay = maxDelay;
        this.whatIsKept = whatIsKept;
        this.delay = firstDelay;
    }

    /** The connection was lost; true if this is news (the window was online). */
    public boolean lost() {
        if (offline.get()) {
            if (!answering) { // a call that hung has now failed: the server is gone, not slow
                answering = true;
                banner.set(bannerText());
            }
            return false;
        }
        return goOffline(true);
    }

    /**
     * The database has not answered for a while (a frozen server: the connection is open, no
     * reply comes): the window works offline as if it were gone, until a probe gets an answer.
     * True if this is news.
     */
    public boolean notAnswering() {
        return !offline.get() && goOffline(false);
    }

    private boolean goOffline(boolean unreachable) {
        answering = unreachable;
        delay = firstDelay;
        nextProbeNanos = ticker.nanoTime() + delay.toNanos();
        banner.set(bannerText()); // the words first: the banner shows the moment offline turns true
        offline.set(true);
        return true;
    }

    /** True when offline, no probe is running and the next one is due; marks a probe as running. */
    public boolean startProbeIfDue() {
        if (!offline.get() || probing || ticker.nanoTime() < nextProbeNanos) {
            return false;
        }
        probing = true;
        return true;
    }

    public void probeFailed() {
        probing = false;
        delay = delay.multipliedBy(2).compareTo(maxDelay) > 0 ? maxDelay : delay.multipliedBy(2);
        nextProbeNanos = ticker.nanoTime() + delay.toNanos();
        banner.set(bannerText());
    }

    /** A probe (or any call) went through. */
    public void back() {
        probing = false;
        answering = true;
        offline.set(false);
        banner.set("");
        delay = firstDelay;
    }

    private String bannerText() {
        return Messages.text(answering ? "common.offline.banner" : "common.notAnswering.banner", whatIsKept,
                Math.max(1, delay.toSeconds()));
    }

    public boolean isOffline() {
        return offline.get();
    }

    public ReadOnlyBooleanProperty offlineProperty() {
        return offline;
    }

    public ReadOnlyStringProperty bannerProperty() {
        return banner;
    }
}
