package org.copydesk.lease;

import java.time.Duration;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jooq.DSLContext;
import org.jooq.Field;

/**
 * Leases on the rows of one table: claim, refresh, renew, release, complete, expire, and the
 * supervisor's force-release, reassign and extend.
 *
 * <p>Rules every operation keeps:
 * <ul>
 *   <li>expiry is the database's clock ({@code NOW(6)}), never the caller's;</li>
 *   <li>every write under a lease is conditional on owner <em>and</em> token; zero rows changed
 *       means the lease was lost and the caller gets a {@link LeaseLost} saying why, more than one
 *       row is a bug and throws;</li>
 *   <li>every change appends an event in the same transaction;</li>
 *   <li>deadlocks and lock wait timeouts are retried (bounded, jittered) and never reach callers
 *       unless every retry failed ({@link DatabaseBusyException}).</li>
 * </ul>
 * A write under a lease whose token is unchanged is accepted even if the expiry has passed: an
 * unchanged token proves nobody claimed the row since, so nobody else can have written it. Expiry
 * decides only when others may take the row.
 *
 * <p>This class is the engine's front: it holds the options and hands each job to a class of its
 * own: claims to a {@link ClaimStrategy} (with {@link ClaimSteps}), the holder's writes to
 * {@link HolderWrites}, the expiry sweep to {@link ExpiredLeaseReleaser}, the supervisor's
 * overrides to {@link SupervisorOverrides}; all SQL is built by {@link LeaseSql}, and events by
 * {@link LeaseEvent}.
 *
 * <p><b>What the product uses.</b> Since V4 editors and supervisors change newsroom data only
 * through database procedures, which claim, renew, release, decide, sweep and override in SQL and
 * write the history themselves. Of this class the product uses {@link #retrying} and
 * {@link #retryingSafeToRepeat} (around every procedure call), {@link #strategy} (the strategy named
 * to {@code claim_articles}), and the reads {@link #heldBy} and {@link #diagnose}. The writes serve
 * the contract and race tests (which hold the rules the procedures also keep), the benchmark's
 * "old engine" cells, and any other table an integrator leases with it.
 */
public final class LeaseEngine {

    /** Tuning; see the README's "Claim strategies" and docs/benchmarks.md for why the defaults. */
    public record Options(ClaimStrategyKind strategy, IsolationLevel isolation, RetryPolicy retry, int optimisticSpread,
                          boolean serverSupportsSkipLocked) {

        public Options {
            Objects.requireNonNull(strategy, "strategy");
            Objects.requireNonNull(isolation, "isolation");
        }

        /** READ COMMITTED: a locking claim keeps locks only on rows it takes; see {@link IsolationLevel}. */
        public static Options defaults(boolean serverSupportsSkipLocked) {
            return new Options(ClaimStrategyKind.bestFor(serverSupportsSkipLocked), IsolationLevel.READ_COMMITTED,
                    RetryPolicy.defaults(), 4, serverSupportsSkipLocked);
        }

        public Options withStrategy(ClaimStrategyKind kind) {
            return new Options(kind, isolation, retry, optimisticSpread, serverSupportsSkipLocked);
        }

        public Options withIsolation(IsolationLevel level) {
            return new Options(strategy, level, retry, optimisticSpread, serverSupportsSkipLocked);
        }
    }

    private final LeaseSql sql;
    private final Transactions transactions;
    private final ClaimStrategy strategy;
    private final HolderWrites holder;
    private final ExpiredLeaseReleaser releaser;
    private final SupervisorOverrides overrides;
    private final LeaseMetrics metrics = new LeaseMetrics();
    private final Options options;

    public LeaseEngine(DSLContext dsl, LeaseTable table, EventLog log, Options options) {
        if (options.strategy() == ClaimStrategyKind.SKIP_LOCKED && !options.serverSupportsSkipLocked()) {
            throw new IllegalArgumentException("this server has no SKIP LOCKED; use BLOCKING or OPTIMISTIC");
        }
        this.options = options;
        this.sql = new LeaseSql(table, log);
        this.transactions = new Transactions(dsl, options.isolation(),
                new TransientErrors(options.retry(), metrics));
        this.strategy = ClaimStrategy.of(options.strategy(), options.optimisticSpread());
        this.holder = new HolderWrites(sql, transactions);
        this.releaser = new ExpiredLeaseReleaser(sql, transactions, options.serverSupportsSkipLocked());
        this.overrides = new SupervisorOverrides(sql, transactions);
    }

    public ClaimStrategyKind strategy() {
        return options.strategy();
    }

    public LeaseMetrics metrics() {
        return metrics;
    }

    // --- the holder's operations --------------------------------------------------------------

    /**
     * The owner's valid leases come back first with their expiry refreshed; then the batch is topped
     * up to {@code limit} with free rows, or rows whose lease expired, in claim order.
     */
    public ClaimResult claim(ClaimRequest request) {
        return strategy.claim(transactions, sql, request, metrics);
    }

    /** The owner's valid leases as they are now; reads only, changes nothing. */
    public List<Lease> heldBy(Owner owner) {
        return transactions.run("read leases", tx -> sql.leasesOn(tx, sql.keysHeldBy(tx, owner, true)));
    }

    /** Extends one lease to {@code NOW(6) + ttl} (at most {@code maxHold} after the claim, if given). */
    public WriteOutcome renew(Lease lease, Duration ttl, Duration maxHold) {
        return holder.renew(lease, ttl, maxHold);
    }

    /**
     * Renews every lease the owner still holds (a heartbeat). Leases the owner let expire but nobody
     * took are renewed too: their token is unchanged, so they are still the owner's.
     */
    public List<Lease> renewAll(Owner owner, Duration ttl, Duration maxHold) {
        return holder.renewAll(owner, ttl, maxHold);
    }

    /** Gives the row back to the queue. */
    public WriteOutcome release(Lease lease, String detail) {
        return transactions.run("release", tx -> holder.end(tx, lease, Map.of(), LeaseAction.RELEASE, detail));
    }

    /** Applies the caller's changes and ends the lease, in a transaction of its own. */
    public WriteOutcome complete(Lease lease, Map<? extends Field<?>, ?> changes, String detail) {
        return transactions.run("complete", tx -> holder.end(tx, lease, changes, LeaseAction.COMPLETE, detail));
    }

    /**
     * Applies the caller's changes and ends the lease inside the caller's transaction, so the caller
     * can write more (a decision, a draft deletion) atomically. The caller's transaction should be
     * run through {@link #inTransaction} to get the retries.
     */
    public WriteOutcome completeWithin(DSLContext callerTransaction, Lease lease, Map<? extends Field<?>, ?> changes,
                                       String detail) {
        return holder.end(callerTransaction, lease, changes, LeaseAction.COMPLETE, detail);
    }

    /** Why a write under {@code lease} found it gone: from the row as it is and the event that ended it. */
    public LeaseLost diagnose(Lease lease) {
        return transactions.run("diagnose lost lease", tx -> sql.diagnose(tx, lease));
    }

    // --- transactions and retries for callers ---------------------------------------------------

    /**
     * Runs work that is a transaction of its own (a database procedure call) with this engine's
     * retries of deadlocks and lock wait timeouts.
     */
    public <T> T retrying(String operation, Supplier<T> work) {
        return transactions.retrying(operation, work);
    }

    /**
     * As {@link #retrying}, for work that is safe to repeat: also run again on a fresh connection
     * when the connection was lost under it (see {@link RetryPolicy}).
     */
    public <T> T retryingSafeToRepeat(String operation, Supplier<T> work) {
        return transactions.retrying(operation, true, work);
    }

    /** Runs caller work in a transaction with this engine's isolation and retries. */
    public <T> T inTransaction(String operation, Function<DSLContext, T> work) {
        return transactions.run(operation, work);
    }

    /** The server's clock now. */
    public LocalDateTime serverTime() {
        return transactions.run("read server time", tx -> tx.select(ServerClock.now()).fetchOne(0, LocalDateTime.class));
    }

    // --- the expiry sweep -----------------------------------------------------------------------

    /**
     * Frees expired leases in chunks of {@code batchSize}, each chunk a short transaction of its
     * own, oldest expiry first, until none is left or {@code maxBatches} chunks were done. Rows
     * another releaser (or claimer) has locked are skipped, so several releasers can run at once.
     * Returns the leases it ended, so callers can report them.
     */
    public List<Lease> releaseExpired(int batchSize, int maxBatches, String actor) {
        return releaser.releaseExpired(batchSize, maxBatches, actor);
    }

    // --- the supervisor's operations ------------------------------------------------------------

    /** Ends whatever lease the row has. Empty if it had none. */
    public Optional<Lease> forceRelease(RowKey key, String actor, String reason) {
        return overrides.forceRelease(key, actor, reason);
    }

    /** Gives the row to {@code toOwner} under a new token, whoever held it. Returns the new lease. */
    public Lease reassign(RowKey key, String toOwner, String actor, Duration ttl, String reason) {
        return overrides.reassign(key, toOwner, actor, ttl, reason);
    }

    /**
     * Moves the row's current expiry {@code by} later (from now, if it already passed), capped at
     * {@code maxHold} after the claim. Empty if the row is not held.
     */
    public Optional<Lease> extend(RowKey key, Duration by, Duration maxHold, String actor) {
        return overrides.extend(key, by, maxHold, actor);
    }
}
