package org.copydesk.lease;

import java.time.Duration;

/**
 * Copydesk's one retry policy for database calls (see {@link SqlFailure} for what is retried):
 * <ul>
 *   <li>a transaction the server rolled back as a conflict (deadlock 1213, lock wait timeout 1205,
 *       a Galera certification failure) is run again at once, up to {@code maxAttempts} times with
 *       full-jitter back-off from {@code firstBackoff} to {@code maxBackoff}: the server asks for
 *       exactly this, and callers never see those errors;</li>
 *   <li>work that is safe to repeat (a claim, a heartbeat, a decision, which is idempotent by its
 *       request id) whose connection was lost is run again on a fresh connection for up to
 *       {@code reconnectFor}, waiting 0.25 s, 0.5 s, 1 s, 2 s … between tries: long enough for a
 *       killed connection, a restarted server or a cluster node's failover, short enough that a
 *       person waiting on a command hears back.</li>
 * </ul>
 */
public record RetryPolicy(int maxAttempts, Duration firstBackoff, Duration maxBackoff, Duration reconnectFor) {

    public RetryPolicy {
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts < 1");
        }
        if (reconnectFor.isNegative()) {
            throw new IllegalArgumentException("reconnectFor < 0");
        }
    }

    /** The same policy, reconnecting for {@code duration} (zero: a lost connection is never retried). */
    public RetryPolicy withReconnectFor(Duration duration) {
        return new RetryPolicy(maxAttempts, firstBackoff, maxBackoff, duration);
    }

    /** Conflicts only: a lost connection is never retried. */
    public RetryPolicy(int maxAttempts, Duration firstBackoff, Duration maxBackoff) {
        this(maxAttempts, firstBackoff, maxBackoff, Duration.ZERO);
    }

    /**
     * Up to 12 attempts on conflicts, backing off from 2 ms to at most 250 ms (worst case about
     * 1.5 s); reconnecting for up to 20 s (a restarted server here was back within 10 s).
     * {@code ReviewSession.Options} sets the reconnecting time per program (desktop, command line).
     */
    public static RetryPolicy defaults() {
        return new RetryPolicy(12, Duration.ofMillis(2), Duration.ofMillis(250), Duration.ofSeconds(20));
    }

    /**
     * On a Galera cluster: a transaction that lost certification to one committed on another node
     * is a conflict like a deadlock, but with editors writing through several nodes they come in
     * storms (the cluster run measured hundreds in 8 s, and 12 attempts ran out for a few calls):
     * up to 30 attempts, backing off to at most 400 ms (worst case about 10 s).
     */
    public static RetryPolicy galera() {
        RetryPolicy d = defaults();
        return new RetryPolicy(30, d.firstBackoff(), Duration.ofMillis(400), d.reconnectFor());
    }
}
