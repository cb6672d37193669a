package org.copydesk.lease;

import java.util.ArrayList;
import java.util.List;
import org.jooq.DSLContext;

/**
 * The expiry sweep: frees leases whose expiry passed, so their rows show as free (a claim takes a
 * lapsed row at once anyway; the sweep keeps the table and the supervisors' view true).
 *
 * <p>Used by the Java engine's callers only (race tests, the benchmark, other tables): the product
 * sweeps with the database's {@code release_expired_leases} since V4.
 */
final class ExpiredLeaseReleaser {

    private final LeaseSql sql;
    private final Transactions transactions;
    private final boolean skipLocked;

    ExpiredLeaseReleaser(LeaseSql sql, Transactions transactions, boolean serverSupportsSkipLocked) {
        this.sql = sql;
        this.transactions = transactions;
        this.skipLocked = serverSupportsSkipLocked;
    }

    List<Lease> releaseExpired(int batchSize, int maxBatches, String actor) {
        List<Lease> released = new ArrayList<>();
        for (int batch = 0; batch < maxBatches; batch++) {
            List<Lease> chunk = transactions.run("release expired", tx -> releaseChunk(tx, batchSize, actor));
            released.addAll(chunk);
            if (chunk.size() < batchSize) {
                break;
            }
        }
        return released;
    }

    private List<Lease> releaseChunk(DSLContext tx, int batchSize, String actor) {
        LeaseTable t = sql.t;
        var select = tx.select(sql.leaseFields())
                .from(t.table())
                .where(sql.expired())
                .orderBy(t.expiresAt().asc())
                .limit(batchSize)
                .forUpdate();
        List<Lease> expired = (skipLocked ? select.skipLocked() : select).fetch(sql::leaseOf);
        if (expired.isEmpty()) {
            return List.of();
        }
        int changed = tx.update(t.table())
                .set(sql.noLease())
                .where(sql.keyIn(expired.stream().map(Lease::key).toList()))
                .execute();
        if (changed != expired.size()) {
            throw new LeaseBugException("release of expired leases locked " + expired.size() + " rows but changed " + changed);
        }
        sql.append(tx, expired.stream().map(l -> LeaseEvent.expired(l, actor)).toList());
        return expired;
    }
}
