package org.copydesk.lease;

import java.time.Duration;

/**
 * Bounded, jittered retries of transactions the server rolled back as a deadlock (1213) or a lock
 * wait timeout (1205): the server asks for exactly this, and callers never see those errors.
 */
public record RetryPolicy(int maxAttempts, Duration firstBackoff, Duration maxBackoff) {

    public RetryPolicy {
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts < 1");
        }
    }

    /** Up to 12 attempts, backing off from 2 ms to at most 250 ms: worst case about 1.5 s. */
    public static RetryPolicy defaults() {
        return new RetryPolicy(12, Duration.ofMillis(2), Duration.ofMillis(250));
    }
}
