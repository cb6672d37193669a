package org.copydesk.testing;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Waits for something another thread or process does, with a limit that fails the test. */
public final class Eventually {

    private Eventually() {
    }

    public static void await(String what, Duration limit, BooleanSupplier condition) throws InterruptedException {
        long end = System.nanoTime() + limit.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("timed out waiting until " + what);
            }
            Thread.sleep(20);
        }
    }
}
