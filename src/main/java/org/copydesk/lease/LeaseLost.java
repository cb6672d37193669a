package org.copydesk.lease;

import java.time.LocalDateTime;

/**
 * A write under a lease changed nothing because the lease is no longer the caller's.
 *
 * @param reason       what ended it
 * @param byActor      who ended it (supervisor, release service, the new holder), if known
 * @param currentOwner who holds the row now, if anyone
 * @param detail       the reason a supervisor gave, if any
 * @param at           when it ended, by the server's clock, if known
 */
public record LeaseLost(Lease lease, LostReason reason, String byActor, String currentOwner, String detail,
                        LocalDateTime at) {
}
