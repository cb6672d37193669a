package org.copydesk.review;

import java.time.Duration;

/** A section of the newsroom, with the lease and retry rules for its articles. */
public record Desk(String id, String name, Duration leaseLength, Duration maxLease, int maxSendBacks,
                   Duration sendBackDelay) {
}
