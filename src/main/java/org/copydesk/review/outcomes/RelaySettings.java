package org.copydesk.review.outcomes;

import java.net.URI;
import java.time.Duration;
import org.copydesk.review.Phrase;

/**
 * How the relay delivers.
 *
 * @param url         where every outcome is posted
 * @param timeout     how long a receiver may take to answer before the attempt counts as failed
 * @param maxAttempts after this many failed attempts an event is marked failed (a supervisor can retry it)
 * @param firstRetry  the wait after the first failed attempt; it doubles with each further one ...
 * @param maxRetry    ... up to this
 * @param poll        how often the relay looks for new outcomes when it has nothing to send
 * @param leaseLength how long the delivery lease lasts without renewal (a relay that died is replaced after it)
 * @param batch       how many events one round fetches at most
 */
public record RelaySettings(URI url, Duration timeout, int maxAttempts, Duration firstRetry, Duration maxRetry, Duration poll,
                            Duration leaseLength, int batch) {

    public RelaySettings {
        String scheme = url == null ? null : url.getScheme();
        if (scheme == null || !(scheme.equalsIgnoreCase("https") || scheme.equalsIgnoreCase("http")) || url.getHost() == null) {
            throw new IllegalArgumentException(Phrase.of("review.relay.url").text());
        }
        if (maxAttempts < 1) {
            throw new IllegalArgumentException(Phrase.of("review.relay.maxAttempts").text());
        }
        if (leaseLength.toSeconds() < 3) {
            throw new IllegalArgumentException(Phrase.of("review.relay.leaseLength").text());
        }
    }

    /** Twelve attempts over about five hours (10 s, then doubling up to 2 h between them); 10 s to answer. */
    public static RelaySettings defaults(URI url) {
        return new RelaySettings(url, Duration.ofSeconds(10), 12, Duration.ofSeconds(10), Duration.ofHours(2),
                Duration.ofSeconds(1), Duration.ofSeconds(30), 50);
    }

    public RelaySettings withAttempts(int attempts, Duration first, Duration max) {
        return new RelaySettings(url, timeout, attempts, first, max, poll, leaseLength, batch);
    }

    public RelaySettings withTiming(Duration answerTimeout, Duration pollEvery, Duration lease) {
        return new RelaySettings(url, answerTimeout, maxAttempts, firstRetry, maxRetry, pollEvery, lease, batch);
    }

    /** The wait before attempt {@code failedSoFar + 1}. */
    Duration retryAfter(int failedSoFar) {
        int doublings = Math.max(0, Math.min(failedSoFar - 1, 30));
        Duration wait = firstRetry.multipliedBy(1L << Math.min(doublings, 20));
        return wait.compareTo(maxRetry) > 0 ? maxRetry : wait;
    }
}
