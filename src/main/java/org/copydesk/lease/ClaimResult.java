package org.copydesk.lease;

import java.time.LocalDateTime;
import java.util.List;

/**
 * What a claim holds now.
 *
 * @param leases     every lease the owner holds on this table after the claim, the ones held before first
 * @param refreshed  how many were already held (and had their expiry refreshed)
 * @param claimed    how many were newly claimed
 * @param serverTime the server's clock at the end of the claim
 */
public record ClaimResult(List<Lease> leases, int refreshed, int claimed, LocalDateTime serverTime) {

    public ClaimResult {
        leases = List.copyOf(leases);
    }
}
