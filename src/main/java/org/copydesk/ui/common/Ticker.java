package org.copydesk.ui.common;

import java.time.Duration;

/**
 * Periodic work on the FX thread (countdowns, heartbeat, autosave, reconnect), and the monotonic
 * clock it is measured with. Tests drive a manual ticker instead of waiting.
 */
public interface Ticker {

    /** Runs {@code action} on the FX thread every {@code period} until the returned handle is closed. */
    AutoCloseable every(Duration period, Runnable action);

    /** Monotonic nanoseconds (never the wall clock: lease times come from the server). */
    long nanoTime();
}
