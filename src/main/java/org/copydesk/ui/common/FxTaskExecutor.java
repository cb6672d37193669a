package org.copydesk.ui.common;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import javafx.application.Platform;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Background threads for database work; results delivered with {@code Platform.runLater}. */
public final class FxTaskExecutor implements TaskExecutor, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(FxTaskExecutor.class);

    private final ExecutorService workers;

    public FxTaskExecutor(int threads) {
        AtomicInteger n = new AtomicInteger();
        this.workers = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "copydesk-io-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    @Override
    public <T> void run(String what, Callable<T> work, Consumer<T> onSuccess, Consumer<Throwable> onFailure) {
        try {
            workers.execute(() -> deliver(what, work, onSuccess, onFailure));
        } catch (RejectedExecutionException closed) {
            // A result already queued for the FX thread can ask for more work after close()
            // (a reload that lands as the window shuts reads ahead); nobody is left to show it.
            log.debug("{} not started: the window has closed", what);
        }
    }

    private static <T> void deliver(String what, Callable<T> work, Consumer<T> onSuccess, Consumer<Throwable> onFailure) {
        try {
            T result = work.call();
            Platform.runLater(() -> onSuccess.accept(result));
        } catch (Exception | Error e) {
            log.debug("{} failed", what, e);
            Platform.runLater(() -> onFailure.accept(e));
        }
    }

    @Override
    public void onUiThread(Runnable update) {
        if (Platform.isFxApplicationThread()) {
            update.run();
        } else {
            Platform.runLater(update);
        }
    }

    /** Lets queued work (a last draft save) finish, for up to five seconds. Call off the FX thread. */
    @Override
    public void close() {
        workers.shutdown();
        try {
            if (!workers.awaitTermination(5, TimeUnit.SECONDS)) {
                log.warn("Background work still running at exit; stopping it");
                workers.shutdownNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            workers.shutdownNow();
        }
    }
}
