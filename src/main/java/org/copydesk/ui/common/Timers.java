package org.copydesk.ui.common;

import java.util.ArrayList;
import java.util.List;

/** The timers a view model started ({@link Ticker#every}), stopped together when it closes. */
public final class Timers implements AutoCloseable {

    private final List<AutoCloseable> running = new ArrayList<>();

    public void add(AutoCloseable timer) {
        running.add(timer);
    }

    @Override
    public void close() {
        for (AutoCloseable t : running) {
            try {
                t.close();
            } catch (Exception ignored) {
                // stopping a timer cannot fail in a way worth reporting
            }
        }
        running.clear();
    }
}
