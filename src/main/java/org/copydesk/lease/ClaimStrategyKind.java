package org.copydesk.lease;

/** How free rows are locked for a claim; see the README's "Claim strategies". */
public enum ClaimStrategyKind {
    /** {@code SELECT … FOR UPDATE SKIP LOCKED}: claimers never wait for each other. The default. */
    SKIP_LOCKED,
    /** Classic {@code SELECT … FOR UPDATE}: for servers without SKIP LOCKED (MySQL 5.7, MariaDB before 10.6). */
    BLOCKING,
    /**
     * No row locks while choosing: read candidates, then compare-and-set each on its token. Meant
     * for clusters where row locks are not cluster-wide (Galera, multi-writer); measured there it
     * was slower than SKIP_LOCKED in every layout (docs/servers.md), so it is never the default.
     */
    OPTIMISTIC;

    /** The best strategy a server supports. */
    public static ClaimStrategyKind bestFor(boolean serverSupportsSkipLocked) {
        return serverSupportsSkipLocked ? SKIP_LOCKED : BLOCKING;
    }

    /**
     * The best strategy for a server that may be a Galera node. On a three-node MariaDB 10.11
     * cluster SKIP_LOCKED was the fastest with editors writing through one node (0.84 of a single
     * server, no conflicts) and through all three (certification conflicts for every strategy,
     * fewest decisions lost to them with SKIP_LOCKED); see docs/servers.md. So a cluster gets the
     * same choice as a single server: what differs there is the retry budget ({@link RetryPolicy#galera()}).
     */
    public static ClaimStrategyKind bestFor(boolean serverSupportsSkipLocked, boolean galeraNode) {
        return bestFor(serverSupportsSkipLocked);
    }
}
