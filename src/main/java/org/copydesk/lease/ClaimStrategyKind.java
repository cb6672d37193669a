package org.copydesk.lease;

/** How free rows are locked for a claim; see the README's "Claim strategies". */
public enum ClaimStrategyKind {
    /** {@code SELECT … FOR UPDATE SKIP LOCKED}: claimers never wait for each other. The default. */
    SKIP_LOCKED,
    /** Classic {@code SELECT … FOR UPDATE}: for servers without SKIP LOCKED (MySQL 5.7, MariaDB before 10.6). */
    BLOCKING,
    /**
     * No row locks while choosing: read candidates, then compare-and-set each on its token. For
     * clusters where row locks are not cluster-wide (Galera, multi-writer).
     */
    OPTIMISTIC;

    /** The best strategy a server supports. */
    public static ClaimStrategyKind bestFor(boolean serverSupportsSkipLocked) {
        return serverSupportsSkipLocked ? SKIP_LOCKED : BLOCKING;
    }
}
