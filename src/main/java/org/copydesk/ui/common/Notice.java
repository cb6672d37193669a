package org.copydesk.ui.common;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A message for the person at the screen. Errors and warnings stay until dismissed; the rest fade
 * after a few seconds. {@code action}, if any, is offered as a button (e.g. "Keep it").
 */
public record Notice(long id, Kind kind, String text, String actionLabel, Runnable action, long postedAtNanos) {

    public enum Kind { INFO, SUCCESS, WARNING, ERROR }

    private static final AtomicLong IDS = new AtomicLong();

    public static Notice of(Kind kind, String text, long nowNanos) {
        return new Notice(IDS.incrementAndGet(), kind, text, null, null, nowNanos);
    }

    public static Notice withAction(Kind kind, String text, String actionLabel, Runnable action, long nowNanos) {
        return new Notice(IDS.incrementAndGet(), kind, text, actionLabel, action, nowNanos);
    }

    /** This notice as if posted at {@code nanos}: its lifetime starts again. */
    public Notice postedAt(long nanos) {
        return new Notice(id, kind, text, actionLabel, action, nanos);
    }

    public boolean sticky() {
        return kind == Kind.ERROR || kind == Kind.WARNING;
    }
}
