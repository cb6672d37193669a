package org.copydesk.lease;

import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.InsertValuesStepN;
import org.jooq.Record;
import org.jooq.RowN;
import org.jooq.impl.DSL;

/**
 * The statements every strategy shares, built for one leasable table and its event log. All time
 * comparisons and expiries use {@link ServerClock}.
 */
final class LeaseSql {

    /** The actions that end a lease, and what the holder is told when one ended theirs. */
    private static final Map<String, LostReason> ENDED_BY = Map.of(
            LeaseAction.EXPIRE.code(), LostReason.EXPIRED,
            LeaseAction.FORCE_RELEASE.code(), LostReason.FORCE_RELEASED,
            LeaseAction.REASSIGN.code(), LostReason.REASSIGNED,
            LeaseAction.RELEASE.code(), LostReason.RELEASED,
            LeaseAction.COMPLETE.code(), LostReason.RELEASED,
            LeaseAction.CLAIM.code(), LostReason.TAKEN);

    final LeaseTable t;
    final EventLog log;
    private final Field<LocalDateTime> now = ServerClock.now();

    LeaseSql(LeaseTable table, EventLog log) {
        this.t = table;
        this.log = log;
    }

    // --- conditions -------------------------------------------------------------------------

    Condition keyIs(RowKey key) {
        if (key.values().size() != t.key().size()) {
            throw new IllegalArgumentException("key " + key + " has " + key.values().size() + " values; table has "
                    + t.key().size() + " key columns");
        }
        List<Condition> parts = new ArrayList<>();
        for (int i = 0; i < t.key().size(); i++) {
            parts.add(eq(t.key().get(i), key.values().get(i)));
        }
        return DSL.and(parts);
    }

    Condition keyIn(Collection<RowKey> keys) {
        if (t.key().size() == 1) {
            @SuppressWarnings("unchecked")
            Field<Object> k = (Field<Object>) t.key().get(0);
            return k.in(keys.stream().map(RowKey::single).toList());
        }
        RowN[] rows = keys.stream().map(k -> DSL.row(k.values().toArray())).toArray(RowN[]::new);
        return DSL.row(t.key()).in(rows);
    }

    /** Held by this owner under this token: the fencing condition of every write under a lease. */
    Condition heldUnder(Lease lease) {
        return keyIs(lease.key()).and(t.owner().eq(lease.owner())).and(t.token().eq(lease.token()));
    }

    Condition heldValidBy(Owner owner) {
        return t.owner().eq(owner.sql()).and(t.expiresAt().gt(now));
    }

    /** Free, or its lease has expired (claimable at once, without waiting for the sweep). */
    Condition claimable() {
        return t.owner().isNull().or(t.expiresAt().le(now));
    }

    Condition expired() {
        return t.owner().isNotNull().and(t.expiresAt().lt(now));
    }

    // --- values --------------------------------------------------------------------------------

    /** {@code NOW(6) + ttl}, capped at {@code claimed_at + maxHold} when a maximum hold time applies. */
    Field<LocalDateTime> expiryAfter(Duration ttl, Duration maxHold) {
        Field<LocalDateTime> plain = ServerClock.nowPlus(ttl);
        if (maxHold == null || t.claimedAt() == null) {
            return plain;
        }
        return DSL.least(plain, ServerClock.plus(t.claimedAt(), maxHold));
    }

    /** The key, owner, token and expiry of a row with the server's clock: what {@link #leaseOf} reads. */
    List<Field<?>> leaseFields() {
        return keyAnd(t.owner(), t.token(), t.expiresAt(), now.as("server_now"));
    }

    /**
     * The assignments that end a row's lease: no owner, no expiry. The token stays, so the next
     * claim's new token is higher than every token this row was ever leased under.
     */
    Map<Field<?>, Object> noLease() {
        Map<Field<?>, Object> set = new LinkedHashMap<>();
        set.put(t.owner(), DSL.castNull(t.owner()));
        set.put(t.expiresAt(), DSL.castNull(t.expiresAt()));
        return set;
    }

    /** Moves the expiry of the rows {@code where} selects, counting a renewal where the table counts them. */
    int renew(DSLContext tx, Field<LocalDateTime> expiry, Condition where) {
        var update = tx.update(t.table()).set(t.expiresAt(), expiry);
        return t.renewals() != null
                ? update.set(t.renewals(), t.renewals().plus(1)).where(where).execute()
                : update.where(where).execute();
    }

    List<Field<?>> keyAnd(Field<?>... more) {
        List<Field<?>> fields = new ArrayList<>(t.key());
        fields.addAll(List.of(more));
        return fields;
    }

    RowKey keyOf(Record r) {
        List<Object> values = new ArrayList<>(t.key().size());
        for (Field<?> k : t.key()) {
            values.add(r.get(k));
        }
        return new RowKey(values);
    }

    /**
     * Keys of the rows the owner holds (only valid leases if {@code validOnly}), by a plain read that
     * locks nothing. Writes to an owner's leases go through these keys rather than through a
     * {@code WHERE owner = ?} update: such an update walks the owner index and, where the owner's
     * range ends, locks the first entry of the next owner; that owner's {@code complete} holds its
     * row and waits for that very entry, while the update waits for the row: a deadlock on almost
     * every second claim at 8 owners in the benchmark. By key, an update locks only the owner's rows.
     */
    List<RowKey> keysHeldBy(DSLContext tx, Owner owner, boolean validOnly) {
        Condition mine = validOnly ? heldValidBy(owner) : t.owner().eq(owner.sql());
        return tx.select(t.key()).from(t.table()).where(mine).fetch(this::keyOf);
    }

    /** Leases on the given rows as they are now (after an update in the same transaction). */
    List<Lease> leasesOn(DSLContext tx, Collection<RowKey> keys) {
        if (keys.isEmpty()) {
            return List.of();
        }
        return tx.select(leaseFields())
                .from(t.table())
                .where(keyIn(keys))
                .fetch(this::leaseOf);
    }

    Lease leaseOf(Record r) {
        return new Lease(keyOf(r), r.get(t.owner()), r.get(t.token()), r.get(t.expiresAt()),
                r.get("server_now", LocalDateTime.class));
    }

    /** Exactly one row, or none; more is a bug in the key handles. */
    static int atMostOne(int changed, String what) {
        if (changed > 1) {
            throw new LeaseBugException(what + " changed " + changed + " rows; the key must identify one row");
        }
        return changed;
    }

    // --- events -------------------------------------------------------------------------------

    /** Writes the events in the caller's transaction, stamped with the server's clock. */
    void append(DSLContext tx, List<LeaseEvent> events) {
        if (events.isEmpty()) {
            return;
        }
        InsertValuesStepN<?> insert = tx.insertInto(log.table(), List.of(log.occurredAt(), log.resource(), log.rowKey(),
                log.action(), log.actor(), log.oldOwner(), log.newOwner(), log.oldToken(), log.token(),
                log.expiresAt(), log.detail()));
        for (LeaseEvent e : events) {
            insert = insert.values(List.of(now, DSL.val(t.resource()), DSL.val(e.key().render()), DSL.val(e.action().code()),
                    DSL.val(e.actor()), DSL.val(e.oldOwner(), log.oldOwner()), DSL.val(e.newOwner(), log.newOwner()),
                    DSL.val(e.oldToken(), log.oldToken()), DSL.val(e.token(), log.token()),
                    DSL.val(e.expiresAt(), log.expiresAt()), DSL.val(truncate(e.detail()), log.detail())));
        }
        insert.execute();
    }

    private static String truncate(String detail) {
        return detail == null || detail.length() <= 2000 ? detail : detail.substring(0, 1997) + "...";
    }

    // --- diagnosis ----------------------------------------------------------------------------

    /** Why a write under {@code lease} changed nothing: from the row as it is and the event that ended the lease. */
    LeaseLost diagnose(DSLContext tx, Lease lease) {
        Record current = tx.select(t.owner(), t.token(), t.expiresAt()).from(t.table()).where(keyIs(lease.key())).fetchOne();
        if (current == null) {
            return LeaseLost.gone(lease, null);
        }
        String currentOwner = current.get(t.owner());
        Record ending = tx.select(log.action(), log.actor(), log.newOwner(), log.detail(), log.occurredAt())
                .from(log.table())
                .where(log.resource().eq(t.resource()))
                .and(log.rowKey().eq(lease.key().render()))
                .and(log.oldToken().eq(lease.token()))
                .and(log.action().in(ENDED_BY.keySet()))
                .orderBy(log.id().asc())
                .limit(1)
                .fetchOne();
        if (ending != null) {
            LostReason reason = ENDED_BY.get(ending.get(log.action()));
            return new LeaseLost(lease, reason, ending.get(log.actor()), currentOwner, ending.get(log.detail()),
                    ending.get(log.occurredAt()));
        }
        if (currentOwner != null && !currentOwner.equals(lease.owner())) {
            return LeaseLost.takenBy(lease, currentOwner);
        }
        if (currentOwner == null) {
            return LeaseLost.ranOut(lease);
        }
        // still this owner's row: under the same token the write matched nothing for another
        // reason; under a newer one the owner claimed it again after this lease ran out
        return current.get(t.token()) == lease.token() ? LeaseLost.gone(lease, currentOwner) : LeaseLost.ranOut(lease, currentOwner);
    }

    @SuppressWarnings("unchecked")
    private static Condition eq(Field<?> field, Object value) {
        return ((Field<Object>) field).eq(value);
    }
}
