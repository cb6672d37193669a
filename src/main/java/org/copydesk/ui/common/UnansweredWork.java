package org.copydesk.ui.common;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * A {@link TaskExecutor} that knows how long its oldest unanswered work has waited. A database
 * that stopped answering (a server frozen or stuck, a network that swallows packets) keeps the
 * connection open and fails nothing for a long time, up to the driver's socket timeout; a window
 * that watches this wait can say the database is not answering within seconds, as surely as it
 * says a dead one cannot be reached. Both windows decide it here, each with its own limit
 * ({@link #waitingTooLong}).
 */
public final class UnansweredWork implements TaskExecutor {

    private final TaskExecutor tasks;
    private final Ticker ticker;
    private final Duration answerWithin;
    private final AtomicLong ids = new AtomicLong();
    private final Map<Long, Long> handedOverAt = new ConcurrentHashMap<>();

    /** @param answerWithin work unanswered longer than this means the database is not answering */
    public UnansweredWork(TaskExecutor tasks, Ticker ticker, Duration answerWithin) {
        this.tasks = tasks;
        this.ticker = ticker;
        this.answerWithin = answerWithin;
    }

    @Override
    public <T> void run(String what, Callable<T> work, Consumer<T> onSuccess, Consumer<Throwable> onFailure) {
        long id = ids.incrementAndGet();
        handedOverAt.put(id, ticker.nanoTime());
        tasks.run(what, work, result -> {
            handedOverAt.remove(id);
            onSuccess.accept(result);
        }, failure -> {
            handedOverAt.remove(id);
            onFailure.accept(failure);
        });
    }

    @Override
    public void onUiThread(Runnable update) {
        tasks.onUiThread(update);
    }

    /** How long the work handed over longest ago has waited for its answer; zero when all is answered. */
    public Duration longestWait() {
        long now = ticker.nanoTime();
        return handedOverAt.values().stream().min(Long::compare).map(at -> Duration.ofNanos(now - at)).orElse(Duration.ZERO);
    }

    /** True while some work has waited longer than the limit for its answer: the database is not answering. */
    public boolean waitingTooLong() {
        return longestWait().compareTo(answerWithin) > 0;
    }
}
