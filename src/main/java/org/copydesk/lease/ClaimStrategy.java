package org.copydesk.lease;

/** One way of choosing and locking free rows for a claim. */
sealed interface ClaimStrategy permits LockingClaims, OptimisticClaims {

    ClaimResult claim(Transactions transactions, LeaseSql sql, ClaimRequest request, LeaseMetrics metrics);

    static ClaimStrategy of(ClaimStrategyKind kind, int optimisticSpread) {
        return switch (kind) {
            case SKIP_LOCKED -> new LockingClaims(true);
            case BLOCKING -> new LockingClaims(false);
            case OPTIMISTIC -> new OptimisticClaims(optimisticSpread);
        };
    }
}
