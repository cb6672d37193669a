package org.copydesk.lease;

import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.SelectForUpdateStep;
import org.jooq.impl.DSL;

/**
 * The steps of a claim that every strategy shares (the locking ones, the optimistic one) and that
 * the supervisor's reassign uses to give a row a new lease: choose candidates, refresh the owner's
 * leases, write a new lease, log what was taken, assemble the result.
 *
 * <p>Used by the Java engine only: the contract and race tests, the benchmark and tables other than
 * the newsroom's. The product's claims run in the database ({@code claim_articles}, since V4), which
 * keeps the same steps in SQL.
 */
final class ClaimSteps {

    private ClaimSteps() {
    }

    /**
     * The claimable rows in claim order, {@code limit} of them; the locking strategies add
     * {@code FOR UPDATE [SKIP LOCKED]}, the optimistic one reads it plainly. A locking read locks
     * every row it scans, so this must be served by an index in claim order (the EXPLAIN test
     * checks it does, without a sort).
     */
    static SelectForUpdateStep<Record> candidates(DSLContext tx, LeaseSql sql, ClaimRequest request, int limit) {
        LeaseTable t = sql.t;
        List<Field<?>> fields = sql.keyAnd(t.owner(), t.token());
        fields.addAll(request.order().rankFields(t)); // the optimistic claim spreads out within a rank
        return tx.select(fields)
                .from(t.table())
                .where(request.scope())
                .and(sql.claimable())
                .orderBy(request.order().fullOrder(t))
                .limit(limit);
    }


    /**
     * Extends every valid lease of the owner to {@code NOW(6) + ttl} (a reload keeps the work),
     * logs each refresh and returns the leases.
     *
     * <p>The rows are locked first and then updated and read back by key, so the refresh events
     * name exactly the rows whose expiry changed. (Reading back "the owner's valid leases" after
     * the update missed a row whose new, shorter expiry had already passed when a loaded server
     * got to the read: its expiry changed with no event, and the race test's replay saw the
     * release service end that lease before its logged expiry.)
     */
    static List<Lease> refreshOwn(DSLContext tx, LeaseSql sql, ClaimRequest request) {
        LeaseTable t = sql.t;
        List<RowKey> mine = sql.keysHeldBy(tx, request.owner(), true);
        if (mine.isEmpty()) {
            return List.of();
        }
        List<RowKey> locked = tx.select(t.key()).from(t.table())
                .where(sql.keyIn(mine)).and(sql.heldValidBy(request.owner()))
                .forUpdate().fetch(sql::keyOf);
        if (locked.isEmpty()) {
            return List.of();
        }
        int changed = sql.renew(tx, request.expiry(), sql.keyIn(locked));
        if (changed != locked.size()) {
            throw new LeaseBugException("refresh locked " + locked.size() + " rows but changed " + changed);
        }
        List<Lease> leases = sql.leasesOn(tx, locked);
        sql.append(tx, leases.stream().map(l -> LeaseEvent.refreshed(l, request.owner().name())).toList());
        return leases;
    }

    /** The assignments that give a row a new lease: owner, expiry, a new token, lane 0 if it ever comes back. */
    static Map<Field<?>, Object> newLease(LeaseTable t, Owner owner, Field<LocalDateTime> expiry) {
        Map<Field<?>, Object> set = new LinkedHashMap<>();
        set.put(t.owner(), owner.sql());
        set.put(t.expiresAt(), expiry);
        set.put(t.token(), t.token().plus(1));
        set.put(t.lane(), DSL.inline(0));
        if (t.claimedAt() != null) {
            set.put(t.claimedAt(), ServerClock.now());
        }
        if (t.renewals() != null) {
            set.put(t.renewals(), DSL.inline(0));
        }
        return set;
    }

    /**
     * Reads back the rows just taken and logs their claims, and the expiry of any lapsed lease
     * a claim took over.
     *
     * @param taken the rows as they were before (key, previous owner and token)
     */
    static List<Lease> logTaken(DSLContext tx, LeaseSql sql, Owner owner, List<Record> taken) {
        LeaseTable t = sql.t;
        Map<RowKey, Lease> after = sql.leasesOn(tx, taken.stream().map(sql::keyOf).toList()).stream()
                .collect(Collectors.toMap(Lease::key, Function.identity()));
        List<Lease> leases = new ArrayList<>();
        List<LeaseEvent> events = new ArrayList<>();
        for (Record previous : taken) { // in claim order
            Lease lease = after.get(sql.keyOf(previous));
            if (lease == null || !lease.owner().equals(owner.name())) {
                throw new LeaseBugException("row " + sql.keyOf(previous) + " was claimed but reads back as " + lease);
            }
            leases.add(lease);
            String oldOwner = previous.get(t.owner());
            Long oldToken = previous.get(t.token());
            if (oldOwner != null) {
                events.add(LeaseEvent.takenOver(lease.key(), oldOwner, oldToken, owner.name()));
            }
            events.add(LeaseEvent.claimed(lease, oldOwner, oldToken));
        }
        sql.append(tx, events);
        return leases;
    }

    static ClaimResult result(DSLContext tx, List<Lease> refreshed, List<Lease> claimed) {
        List<Lease> all = new ArrayList<>(refreshed);
        all.addAll(claimed);
        LocalDateTime serverTime = all.isEmpty()
                ? tx.select(ServerClock.now()).fetchOne(0, LocalDateTime.class)
                : all.get(0).serverTime();
        return new ClaimResult(all, refreshed.size(), claimed.size(), serverTime);
    }
}
