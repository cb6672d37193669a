package org.copydesk.lease;

/**
 * How the database's {@code claim_articles} locks free rows for a claim (its strategy argument);
 * see the README's "Claim strategies".
 */
public enum ClaimStrategyKind {
    /** {@code SELECT … FOR UPDATE SKIP LOCKED}: claimers never wait for each other. The default. */
    SKIP_LOCKED,
    /** Candidates read without locks, then locked one by one by primary key: for servers without SKIP LOCKED. */
    BLOCKING,
    /**
     * No row locks while choosing: read candidates, then compare-and-set each on its token. Meant
     * for clusters where row locks are not cluster-wide (Galera, multi-writer); measured there it
     * was slower than SKIP_LOCKED in every layout (docs/servers.md), so it is never the default.
     */
    OPTIMISTIC;

    /**
     * The best strategy a server supports. A Galera node gets the same choice as a single server
     * (on a three-node MariaDB 10.11 cluster SKIP_LOCKED lost the fewest decisions to certification
     * conflicts, docs/servers.md): what differs there is the retry budget ({@link RetryPolicy#galera()}).
     */
    public static ClaimStrategyKind bestFor(boolean serverSupportsSkipLocked) {
        return serverSupportsSkipLocked ? SKIP_LOCKED : BLOCKING;
    }
}
