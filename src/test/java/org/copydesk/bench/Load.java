package org.copydesk.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * N owners, each on a thread of its own: claim, complete every item, repeat. Claim latencies are
 * counted into the bucket chosen by {@link #measuring} when the claim returns, completed rows when
 * the completion returns while a bucket is chosen ({@link #NONE}: not counted).
 *
 * <p>{@link #pause} holds every owner between two calls until {@link #resume}, so that the server's
 * counters can be read while no call is in flight: the rows counted and the server's work then
 * cover exactly the same calls (read under load, a counter read queues behind the owners' calls,
 * and the calls finished meanwhile were in the counters but not in the rows).
 */
final class Load {
    static final int NONE = -1;
    static final int WITHOUT = 0;
    static final int DURING = 1;

    private final List<? extends OwnerLoop<?>> loops;
    private final List<Thread> threads = new ArrayList<>();
    private final long[][][] samples;
    private final AtomicInteger[][] counts;
    private final AtomicBoolean stop = new AtomicBoolean();
    private volatile int bucket = NONE;
    final AtomicLong rows = new AtomicLong();
    /** Items a completion found lost (not claimed-and-decided; should stay 0 in a benchmark). */
    final AtomicLong lost = new AtomicLong();
    /**
     * Claims that came back with fewer items than asked (every owner asks for a full batch,
     * {@link ClaimBenchmark#BATCH}), and those that came back with none.
     */
    final AtomicLong shortClaims = new AtomicLong();
    final AtomicLong emptyClaims = new AtomicLong();
    /** Exceptions the owner's loop received while measuring: errors a user would see. */
    final AtomicLong callerErrors = new AtomicLong();
    final AtomicLong firstErrorLogged = new AtomicLong();
    private final CountDownLatch ready;
    private final Object gate = new Object();
    private volatile boolean paused;
    private int parked;

    Load(List<? extends OwnerLoop<?>> loops, String prefix) {
        this.loops = loops;
        int owners = loops.size();
        this.samples = new long[owners][2][1 << 16];
        this.counts = new AtomicInteger[owners][2];
        this.ready = new CountDownLatch(owners);
        for (int i = 0; i < owners; i++) {
            counts[i][0] = new AtomicInteger();
            counts[i][1] = new AtomicInteger();
            int me = i;
            OwnerLoop<?> loop = loops.get(i);
            threads.add(new Thread(() -> run(loop, me), "bench-" + prefix + i));
        }
    }

    void start() {
        threads.forEach(Thread::start);
        try {
            ready.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    void measuring(boolean on) {
        measuring(on ? WITHOUT : NONE);
    }

    void measuring(int into) {
        bucket = into;
    }

    /** Holds every owner before its next call and returns once all of them wait (no call in flight). */
    void pause() {
        synchronized (gate) {
            paused = true;
            // (an owner whose thread died of an Error never parks: count the living)
            while (parked < threads.stream().filter(Thread::isAlive).count()) {
                try {
                    gate.wait(100);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    void resume() {
        synchronized (gate) {
            paused = false;
            gate.notifyAll();
        }
    }

    /** Between two calls: waits while paused. */
    private void passGate() {
        if (!paused) {
            return; // the usual case, without taking the gate's lock
        }
        synchronized (gate) {
            if (!paused) {
                return;
            }
            parked++;
            gate.notifyAll();
            while (paused && !stop.get()) {
                try {
                    gate.wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
            parked--;
        }
    }

    void stop() {
        stop.set(true);
        resume();
        threads.forEach(ClaimBenchmark::join);
        for (OwnerLoop<?> loop : loops) {
            try {
                loop.close();
            } catch (Exception e) {
                ClaimBenchmark.say("closing an owner failed: %s", e);
            }
        }
    }

    long[] latencies() {
        return latencies(WITHOUT);
    }

    long[] latencies(int which) {
        int total = 0;
        for (AtomicInteger[] c : counts) {
            total += c[which].get();
        }
        long[] all = new long[total];
        int at = 0;
        for (int i = 0; i < counts.length; i++) {
            int n = counts[i][which].get();
            System.arraycopy(samples[i][which], 0, all, at, n);
            at += n;
        }
        Arrays.sort(all);
        return all;
    }

    private <T> void run(OwnerLoop<T> loop, int me) {
        ready.countDown();
        while (!stop.get()) {
            try {
                passGate();
                long t0 = System.nanoTime();
                List<T> claimed = loop.claim();
                long micros = (System.nanoTime() - t0) / 1000;
                int into = bucket;
                if (into != NONE && claimed.size() < ClaimBenchmark.BATCH) {
                    shortClaims.incrementAndGet();
                    if (claimed.isEmpty()) {
                        emptyClaims.incrementAndGet();
                    }
                }
                if (into != NONE) {
                    AtomicInteger count = counts[me][into];
                    if (count.get() < samples[me][into].length) {
                        samples[me][into][count.getAndIncrement()] = micros;
                    }
                }
                for (T item : claimed) {
                    passGate();
                    boolean done = loop.complete(item);
                    // counted when the completion returns, so a window's rows match the server's
                    // counters read around that window
                    if (bucket != NONE) {
                        (done ? rows : lost).incrementAndGet();
                    }
                }
                if (claimed.isEmpty()) {
                    ClaimBenchmark.sleep(1);
                }
            } catch (RuntimeException e) {
                // DatabaseBusyException (retries exhausted) or anything else: an error a user would see,
                // counted in the measured window like the retries it is compared with.
                if (bucket != NONE) {
                    callerErrors.incrementAndGet();
                }
                if (firstErrorLogged.getAndIncrement() < 3) {
                    Throwable cause = e;
                    while (cause.getCause() != null && cause.getCause() != cause) {
                        cause = cause.getCause();
                    }
                    ClaimBenchmark.say("error reaching the caller in %s: %s (cause: %s)", Thread.currentThread().getName(), e, cause);
                }
            }
        }
    }
}
