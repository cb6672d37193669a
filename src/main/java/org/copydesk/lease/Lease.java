package org.copydesk.lease;

import java.time.Duration;
import java.time.LocalDateTime;

/**
 * A lease held on one row: the proof an owner presents for every later write.
 *
 * @param expiresAt  when the lease ends, by the server's clock
 * @param serverTime the server's clock when this lease was read; {@code expiresAt - serverTime} is
 *                   the time left, independent of the client's clock
 */
public record Lease(RowKey key, String owner, long token, LocalDateTime expiresAt, LocalDateTime serverTime) {

    /** Time left when the lease was read, measured on the server's clock. */
    public Duration remainingAtRead() {
        Duration d = Duration.between(serverTime, expiresAt);
        return d.isNegative() ? Duration.ZERO : d;
    }
}
