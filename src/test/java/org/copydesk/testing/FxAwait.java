package org.copydesk.testing;

import java.util.function.BooleanSupplier;
import org.testfx.util.WaitForAsyncUtils;

/** {@link Await} for TestFX tests: each look at the condition comes after the FX thread has caught up. */
public final class FxAwait {

    private FxAwait() {
    }

    /**
     * Until {@code condition} holds; a condition that throws (a node mid-update, e.g. a cell without
     * a scene yet) is looked at again.
     */
    public static void waitFor(int seconds, BooleanSupplier condition) {
        Await.waitFor(seconds, () -> {
            WaitForAsyncUtils.waitForFxEvents();
            try {
                return condition.getAsBoolean();
            } catch (RuntimeException e) {
                return false;
            }
        });
    }
}
