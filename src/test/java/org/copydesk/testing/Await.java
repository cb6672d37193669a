package org.copydesk.testing;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import javafx.application.Platform;

/**
 * Waiting in tests for something that happens on another thread: one helper instead of a private
 * {@code waitFor} in each test class ({@link FxAwait} for TestFX tests). Each waits at most the
 * given time and then fails with an {@link AssertionError}; none waits longer than the condition takes.
 */
public final class Await {

    private static final long POLL_MILLIS = 50;

    private Await() {
    }

    /** Until {@code condition} holds, looked at from the test's thread every 50 ms. */
    public static void waitFor(int seconds, BooleanSupplier condition) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not met within " + seconds + " s");
            }
            pause();
        }
    }

    /** Until {@code condition}, evaluated on the FX thread itself (for code that is not a TestFX test). */
    public static void waitForOnFxThread(int seconds, BooleanSupplier condition) {
        waitFor(seconds, () -> {
            CompletableFuture<Boolean> answer = new CompletableFuture<>();
            Platform.runLater(() -> answer.complete(condition.getAsBoolean()));
            try {
                return answer.get(Duration.ofSeconds(seconds).toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting", e);
            } catch (Exception e) {
                throw new AssertionError("the FX thread did not answer", e);
            }
        });
    }

    private static void pause() {
        try {
            Thread.sleep(POLL_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while waiting", e);
        }
    }
}
