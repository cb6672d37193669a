package org.copydesk.testing;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.copydesk.ui.common.Ticker;

/** A {@link Ticker} that moves only when a test says so. */
public final class ManualTicker implements Ticker {

    private final class Timer {
        final long periodNanos;
        final Runnable action;
        long nextNanos;
        boolean stopped;

        Timer(Duration period, Runnable action) {
            this.periodNanos = period.toNanos();
            this.action = action;
            this.nextNanos = now + periodNanos;
        }
    }

    private final List<Timer> timers = new ArrayList<>();
    private long now = 1_000_000_000L;

    @Override
    public AutoCloseable every(Duration period, Runnable action) {
        Timer t = new Timer(period, action);
        timers.add(t);
        return () -> t.stopped = true;
    }

    @Override
    public long nanoTime() {
        return now;
    }

    /** Moves time forward, firing each timer once per period passed, in time order. */
    public void advance(Duration by) {
        long end = now + by.toNanos();
        while (true) {
            Timer next = timers.stream().filter(t -> !t.stopped && t.nextNanos <= end)
                    .min((a, b) -> Long.compare(a.nextNanos, b.nextNanos)).orElse(null);
            if (next == null) {
                break;
            }
            now = next.nextNanos;
            next.nextNanos += next.periodNanos;
            next.action.run();
        }
        now = end;
    }
}
