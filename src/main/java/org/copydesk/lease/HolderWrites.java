package org.copydesk.lease;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;

/**
 * The holder's writes under its leases: renew one, renew all (the heartbeat), and end one
 * (release, or complete with the caller's changes). Each is fenced by owner and token; zero rows
 * changed comes back as {@link WriteOutcome.Lost} with the reason read from the event log.
 *
 * <p>Used by the Java engine's callers only (contract and race tests, the benchmark, other
 * tables): the product's editors renew, release and decide through database procedures since V4.
 */
final class HolderWrites {

    private final LeaseSql sql;
    private final Transactions transactions;

    HolderWrites(LeaseSql sql, Transactions transactions) {
        this.sql = sql;
        this.transactions = transactions;
    }

    WriteOutcome renew(Lease lease, Duration ttl, Duration maxHold) {
        return transactions.run("renew", tx -> {
            int changed = sql.renew(tx, sql.expiryAfter(ttl, maxHold), sql.heldUnder(lease));
            if (LeaseSql.atMostOne(changed, "renew") == 0) {
                return new WriteOutcome.Lost(sql.diagnose(tx, lease));
            }
            Lease renewed = sql.leasesOn(tx, List.of(lease.key())).get(0);
            sql.append(tx, List.of(LeaseEvent.renewed(renewed, lease.owner())));
            return new WriteOutcome.Applied(renewed);
        });
    }

    List<Lease> renewAll(Owner owner, Duration ttl, Duration maxHold) {
        return transactions.run("renew all", tx -> {
            // by key, not by owner: see LeaseSql.keysHeldBy
            List<RowKey> mine = sql.keysHeldBy(tx, owner, false);
            if (mine.isEmpty()) {
                return List.<Lease>of();
            }
            Condition stillMine = sql.keyIn(mine).and(sql.t.owner().eq(owner.sql()));
            if (sql.renew(tx, sql.expiryAfter(ttl, maxHold), stillMine) == 0) {
                return List.of();
            }
            List<Lease> leases = tx.select(sql.leaseFields()).from(sql.t.table()).where(stillMine).fetch(sql::leaseOf);
            sql.append(tx, leases.stream().map(l -> LeaseEvent.renewed(l, owner.name())).toList());
            return leases;
        });
    }

    /** Ends the lease in {@code tx}: the caller's {@code changes} and the end of the lease in one update. */
    WriteOutcome end(DSLContext tx, Lease lease, Map<? extends Field<?>, ?> changes, LeaseAction action, String detail) {
        Map<Field<?>, Object> set = new LinkedHashMap<>(changes);
        set.putAll(sql.noLease());
        int changed = tx.update(sql.t.table()).set(set).where(sql.heldUnder(lease)).execute();
        if (LeaseSql.atMostOne(changed, action.code()) == 0) {
            return new WriteOutcome.Lost(sql.diagnose(tx, lease));
        }
        sql.append(tx, List.of(LeaseEvent.ended(action, lease, lease.owner(), detail)));
        return new WriteOutcome.Applied(lease);
    }
}
