package org.copydesk.lease;

import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.impl.DSL;

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
        return transactions.run("renew", tx -> {
            LeaseTable t = sql.t;
            var update = tx.update(t.table()).set(t.expiresAt(), sql.expiryAfter(ttl, maxHold));
            int changed = t.renewals() != null
                    ? update.set(t.renewals(), t.renewals().plus(1)).where(sql.heldUnder(lease)).execute()
                    : update.where(sql.heldUnder(lease)).execute();
            if (LeaseSql.atMostOne(changed, "renew") == 0) {
                return new WriteOutcome.Lost(sql.diagnose(tx, lease));
            }
            Lease renewed = sql.leasesOn(tx, List.of(lease.key())).get(0);
            sql.append(tx, List.of(LeaseEvent.renewed(renewed, lease.owner())));
            return new WriteOutcome.Applied(renewed);
        });
    }

    /**
     * Renews every lease the owner still holds (a heartbeat). Leases the owner let expire but nobody
     * took are renewed too: their token is unchanged, so they are still the owner's.
     */
    public List<Lease> renewAll(Owner owner, Duration ttl, Duration maxHold) {
        return transactions.run("renew all", tx -> {
            LeaseTable t = sql.t;
            // by key, not by owner: see LeaseSql.keysHeldBy
            List<RowKey> mine = sql.keysHeldBy(tx, owner, false);
            if (mine.isEmpty()) {
                return List.<Lease>of();
            }
            var update = tx.update(t.table()).set(t.expiresAt(), sql.expiryAfter(ttl, maxHold));
            var where = sql.keyIn(mine).and(t.owner().eq(owner.sql()));
            int changed = t.renewals() != null
                    ? update.set(t.renewals(), t.renewals().plus(1)).where(where).execute()
                    : update.where(where).execute();
            if (changed == 0) {
                return List.of();
            }
            List<Lease> leases = tx.select(sql.keyAnd(t.owner(), t.token(), t.expiresAt(), ServerClock.now().as("server_now")))
                    .from(t.table()).where(where).fetch(sql::leaseOf);
            sql.append(tx, leases.stream().map(l -> LeaseEvent.renewed(l, owner.name())).toList());
            return leases;
        });
    }

    /** Gives the row back to the queue. */
    public WriteOutcome release(Lease lease, String detail) {
        return transactions.run("release", tx -> end(tx, lease, Map.of(), LeaseAction.RELEASE, detail));
    }

    /** Applies the caller's changes and ends the lease, in a transaction of its own. */
    public WriteOutcome complete(Lease lease, Map<? extends Field<?>, ?> changes, String detail) {
        return transactions.run("complete", tx -> end(tx, lease, changes, LeaseAction.COMPLETE, detail));
    }

    /**
     * Applies the caller's changes and ends the lease inside the caller's transaction, so the caller
     * can write more (a decision, a draft deletion) atomically. The caller's transaction should be
     * run through {@link #inTransaction} to get the retries.
     */
    public WriteOutcome completeWithin(DSLContext callerTransaction, Lease lease, Map<? extends Field<?>, ?> changes,
                                       String detail) {
        return end(callerTransaction, lease, changes, LeaseAction.COMPLETE, detail);
    }

    /**
     * Runs work that is a transaction of its own (a database procedure call) with this engine's
     * retries of deadlocks and lock wait timeouts.
     */
    public <T> T retrying(String operation, java.util.function.Supplier<T> work) {
        return transactions.retrying(operation, work);
    }

    /**
     * As {@link #retrying}, for work that is safe to repeat: also run again on a fresh connection
     * when the connection was lost under it (see {@link RetryPolicy}).
     */
    public <T> T retryingSafeToRepeat(String operation, java.util.function.Supplier<T> work) {
        return transactions.retrying(operation, true, work);
    }

    /** Why a write under {@code lease} found it gone: from the row as it is and the event that ended it. */
    public LeaseLost diagnose(Lease lease) {
        return transactions.run("diagnose lost lease", tx -> sql.diagnose(tx, lease));
    }

    /** Runs caller work in a transaction with this engine's isolation and retries. */
    public <T> T inTransaction(String operation, java.util.function.Function<DSLContext, T> work) {
        return transactions.run(operation, work);
    }

    private WriteOutcome end(DSLContext tx, Lease lease, Map<? extends Field<?>, ?> changes, LeaseAction action, String detail) {
        LeaseTable t = sql.t;
        Map<Field<?>, Object> set = new LinkedHashMap<>(changes);
        set.put(t.owner(), DSL.castNull(t.owner()));
        set.put(t.expiresAt(), DSL.castNull(t.expiresAt()));
        int changed = tx.update(t.table()).set(set).where(sql.heldUnder(lease)).execute();
        if (LeaseSql.atMostOne(changed, action.code()) == 0) {
            return new WriteOutcome.Lost(sql.diagnose(tx, lease));
        }
        sql.append(tx, List.of(LeaseEvent.ended(action, lease, lease.owner(), detail)));
        return new WriteOutcome.Applied(lease);
    }

    // --- the release service ------------------------------------------------------------------

    /**
     * Frees expired leases in chunks of {@code batchSize}, each chunk a short transaction of its
     * own, oldest expiry first, until none is left or {@code maxBatches} chunks were done. Rows
     * another releaser (or claimer) has locked are skipped, so several releasers can run at once.
     * Returns the leases it ended, so callers can report them.
     */
    public List<Lease> releaseExpired(int batchSize, int maxBatches, String actor) {
        List<Lease> released = new ArrayList<>();
        for (int batch = 0; batch < maxBatches; batch++) {
            List<Lease> chunk = transactions.run("release expired", tx -> releaseExpiredChunk(tx, batchSize, actor));
            released.addAll(chunk);
            if (chunk.size() < batchSize) {
                break;
            }
        }
        return released;
    }

    private List<Lease> releaseExpiredChunk(DSLContext tx, int batchSize, String actor) {
        LeaseTable t = sql.t;
        var select = tx.select(sql.keyAnd(t.owner(), t.token(), t.expiresAt(), ServerClock.now().as("server_now")))
                .from(t.table())
                .where(sql.expired())
                .orderBy(t.expiresAt().asc())
                .limit(batchSize)
                .forUpdate();
        List<Lease> expired = (options.serverSupportsSkipLocked() ? select.skipLocked() : select).fetch(sql::leaseOf);
        if (expired.isEmpty()) {
            return List.of();
        }
        int changed = tx.update(t.table())
                .set(t.owner(), DSL.castNull(t.owner()))
                .set(t.expiresAt(), DSL.castNull(t.expiresAt()))
                .where(sql.keyIn(expired.stream().map(Lease::key).toList()))
                .execute();
        if (changed != expired.size()) {
            throw new LeaseBugException("release of expired leases locked " + expired.size() + " rows but changed " + changed);
        }
        sql.append(tx, expired.stream().map(l -> LeaseEvent.expired(l, actor)).toList());
        return expired;
    }

    // --- the supervisor's operations ----------------------------------------------------------

    /** Ends whatever lease the row has. Empty if it had none. */
    public Optional<Lease> forceRelease(RowKey key, String actor, String reason) {
        return transactions.run("force release", tx -> {
            Optional<Lease> current = lockCurrent(tx, key);
            current.ifPresent(l -> {
                endCurrent(tx, l);
                sql.append(tx, List.of(LeaseEvent.ended(LeaseAction.FORCE_RELEASE, l, actor, reason)));
            });
            return current;
        });
    }

    /** Gives the row to {@code toOwner} under a new token, whoever held it. Returns the new lease. */
    public Lease reassign(RowKey key, String toOwner, String actor, Duration ttl, String reason) {
        Owner to = Owner.named(toOwner);
        return transactions.run("reassign", tx -> {
            Optional<Lease> before = lockCurrent(tx, key);
            LeaseTable t = sql.t;
            int changed = tx.update(t.table()).set(ClaimSteps.newLease(t, to, ServerClock.nowPlus(ttl))).where(sql.keyIs(key)).execute();
            if (LeaseSql.atMostOne(changed, "reassign") == 0) {
                throw new IllegalArgumentException("no row " + key);
            }
            Lease lease = sql.leasesOn(tx, List.of(key)).get(0);
            sql.append(tx, List.of(LeaseEvent.reassigned(before, lease, actor, reason)));
            return lease;
        });
    }

    /**
     * Moves the row's current expiry {@code by} later (from now, if it already passed), capped at
     * {@code maxHold} after the claim. Empty if the row is not held.
     */
    public Optional<Lease> extend(RowKey key, Duration by, Duration maxHold, String actor) {
        return transactions.run("extend", tx -> {
            Optional<Lease> current = lockCurrent(tx, key);
            if (current.isEmpty()) {
                return Optional.<Lease>empty();
            }
            LeaseTable t = sql.t;
            Field<LocalDateTime> extended = ServerClock.plus(DSL.greatest(t.expiresAt(), ServerClock.now()), by);
            if (maxHold != null && t.claimedAt() != null) {
                extended = DSL.least(extended, ServerClock.plus(t.claimedAt(), maxHold));
            }
            tx.update(t.table()).set(t.expiresAt(), extended).where(sql.keyIs(key)).execute();
            Lease lease = sql.leasesOn(tx, List.of(key)).get(0);
            sql.append(tx, List.of(LeaseEvent.extended(lease, actor, by)));
            return Optional.of(lease);
        });
    }

    /** The row's current lease, locked for this transaction; empty when the row is free. */
    private Optional<Lease> lockCurrent(DSLContext tx, RowKey key) {
        LeaseTable t = sql.t;
        Record r = tx.select(sql.keyAnd(t.owner(), t.token(), t.expiresAt(), ServerClock.now().as("server_now")))
                .from(t.table()).where(sql.keyIs(key)).forUpdate().fetchOne();
        if (r == null) {
            throw new IllegalArgumentException("no row " + key);
        }
        return r.get(t.owner()) == null ? Optional.empty() : Optional.of(sql.leaseOf(r));
    }

    private void endCurrent(DSLContext tx, Lease lease) {
        LeaseTable t = sql.t;
        int changed = tx.update(t.table())
                .set(t.owner(), DSL.castNull(t.owner()))
                .set(t.expiresAt(), DSL.castNull(t.expiresAt()))
                .where(sql.heldUnder(lease)).execute();
        LeaseSql.atMostOne(changed, "force release");
    }

    /** The server's clock now. */
    public LocalDateTime serverTime() {
        return transactions.run("read server time", tx -> tx.select(ServerClock.now()).fetchOne(0, LocalDateTime.class));
    }
}
