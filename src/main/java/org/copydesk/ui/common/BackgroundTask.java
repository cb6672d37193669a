package org.copydesk.ui.common;

import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import javafx.beans.property.BooleanProperty;

/**
 * Background work with a lifecycle, after JabRef's {@code BackgroundTask}: "in flight" and
 * "finished" callbacks around the work, so a caller never resets its own busy flag in two branches,
 * and a {@link Cancellable} result whose success or failure is then not delivered (finished still
 * is). Every callback runs on the FX thread; {@link #onRunning} at once, on the caller's thread.
 */
public final class BackgroundTask<T> {

    /** A started task. After {@link #cancel()} its success and failure callbacks are not run. */
    public interface Cancellable {
        void cancel();

        boolean isCancelled();

        /** True once the work has ended (delivered or not). */
        boolean isDone();
    }

    private final String what;
    private final Callable<T> work;
    private Runnable onRunning = () -> { };
    private Runnable onFinished = () -> { };
    private Consumer<T> onSuccess = result -> { };
    private Consumer<Throwable> onFailure = failure -> { };

    private BackgroundTask(String what, Callable<T> work) {
        this.what = Objects.requireNonNull(what);
        this.work = Objects.requireNonNull(work);
    }

    /** @param what a few words for the log */
    public static <T> BackgroundTask<T> of(String what, Callable<T> work) {
        return new BackgroundTask<>(what, work);
    }

    /** Work that returns nothing worth passing on. */
    public static BackgroundTask<Boolean> of(String what, Runnable work) {
        return new BackgroundTask<>(what, () -> {
            work.run();
            return true;
        });
    }

    public BackgroundTask<T> onRunning(Runnable action) {
        this.onRunning = Objects.requireNonNull(action);
        return this;
    }

    /** Runs after success or failure (and after a cancelled task's end), whatever happened. */
    public BackgroundTask<T> onFinished(Runnable action) {
        this.onFinished = Objects.requireNonNull(action);
        return this;
    }

    public BackgroundTask<T> onSuccess(Consumer<T> action) {
        this.onSuccess = Objects.requireNonNull(action);
        return this;
    }

    public BackgroundTask<T> onFailure(Consumer<Throwable> action) {
        this.onFailure = Objects.requireNonNull(action);
        return this;
    }

    /** {@code flag} is true while the task is in flight. */
    public BackgroundTask<T> busy(BooleanProperty flag) {
        return onRunning(() -> flag.set(true)).onFinished(() -> flag.set(false));
    }

    public Cancellable executeWith(TaskExecutor tasks) {
        Handle handle = new Handle();
        onRunning.run();
        tasks.run(what, work, result -> handle.end(() -> onSuccess.accept(result)),
                failure -> handle.end(() -> onFailure.accept(failure)));
        return handle;
    }

    private final class Handle implements Cancellable {
        private volatile boolean cancelled;
        private volatile boolean done;

        void end(Runnable deliver) {
            done = true;
            try {
                if (!cancelled) {
                    deliver.run();
                }
            } finally {
                onFinished.run();
            }
        }

        @Override
        public void cancel() {
            cancelled = true;
        }

        @Override
        public boolean isCancelled() {
            return cancelled;
        }

        @Override
        public boolean isDone() {
            return done;
        }
    }
}
