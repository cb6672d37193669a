package org.copydesk.lease;

import java.time.Duration;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Optional;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.impl.DSL;

/**
 * What a supervisor may do to any lease, whoever holds it: end it, give the row to someone else
 * under a new token, or move its expiry. Each locks the row first, so it acts on the lease as it
 * is, and logs the lease it ended or changed.
 *
 * <p>Used by the Java engine's callers only (contract tests, other tables): the product's
 * supervisors act through the database procedures {@code force_release}, {@code reassign_article}
 * and {@code extend_lease} since V4, which check their role there.
 */
final class SupervisorOverrides {

    private final LeaseSql sql;
    private final Transactions transactions;

    SupervisorOverrides(LeaseSql sql, Transactions transactions) {
        this.sql = sql;
        this.transactions = transactions;
    }

    Optional<Lease> forceRelease(RowKey key, String actor, String reason) {
        return transactions.run("force release", tx -> {
            Optional<Lease> current = lockCurrent(tx, key);
            current.ifPresent(l -> {
                int changed = tx.update(sql.t.table()).set(sql.noLease()).where(sql.heldUnder(l)).execute();
                LeaseSql.atMostOne(changed, "force release");
                sql.append(tx, List.of(LeaseEvent.ended(LeaseAction.FORCE_RELEASE, l, actor, reason)));
            });
            return current;
        });
    }

    Lease reassign(RowKey key, String toOwner, String actor, Duration ttl, String reason) {
        Owner to = Owner.named(toOwner);
        return transactions.run("reassign", tx -> {
            Optional<Lease> before = lockCurrent(tx, key);
            int changed = tx.update(sql.t.table())
                    .set(ClaimSteps.newLease(sql.t, to, ServerClock.nowPlus(ttl)))
                    .where(sql.keyIs(key))
                    .execute();
            if (LeaseSql.atMostOne(changed, "reassign") == 0) {
                throw new IllegalArgumentException("no row " + key);
            }
            Lease lease = sql.leasesOn(tx, List.of(key)).get(0);
            sql.append(tx, List.of(LeaseEvent.reassigned(before, lease, actor, reason)));
            return lease;
        });
    }

    Optional<Lease> extend(RowKey key, Duration by, Duration maxHold, String actor) {
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
        Record r = tx.select(sql.leaseFields()).from(sql.t.table()).where(sql.keyIs(key)).forUpdate().fetchOne();
        if (r == null) {
            throw new IllegalArgumentException("no row " + key);
        }
        return r.get(sql.t.owner()) == null ? Optional.empty() : Optional.of(sql.leaseOf(r));
    }
}
