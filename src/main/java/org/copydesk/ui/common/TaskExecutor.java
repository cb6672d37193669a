package org.copydesk.ui.common;

import java.util.concurrent.Callable;
import java.util.function.Consumer;

/**
 * Runs work off the FX thread and reports back on it. View models use nothing else for I/O, so
 * the FX thread never waits on the database. Tests use {@link #sameThread()}, which runs
 * everything at once on the caller's thread.
 */
public interface TaskExecutor {

    /**
     * @param what      a few words for the log
     * @param work      runs on a background thread
     * @param onSuccess runs on the FX thread with the result
     * @param onFailure runs on the FX thread with the failure
     */
    <T> void run(String what, Callable<T> work, Consumer<T> onSuccess, Consumer<Throwable> onFailure);

    /** Runs a UI update on the FX thread (now if already there). */
    void onUiThread(Runnable update);

    static TaskExecutor sameThread() {
        return new TaskExecutor() {
            @Override
            public <T> void run(String what, Callable<T> work, Consumer<T> onSuccess, Consumer<Throwable> onFailure) {
                T result;
                try {
                    result = work.call();
                } catch (Exception | Error e) {
                    onFailure.accept(e);
                    return;
                }
                onSuccess.accept(result);
            }

            @Override
            public void onUiThread(Runnable update) {
                update.run();
            }
        };
    }
}
