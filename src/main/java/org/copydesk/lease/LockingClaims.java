package org.copydesk.lease;

import java.util.List;
import org.jooq.DSLContext;
import org.jooq.Record;
import org.jooq.SelectForUpdateStep;

/**
 * A claim in one transaction: refresh the owner's valid leases, lock up to the missing number of
 * claimable rows with {@code SELECT … FOR UPDATE [SKIP LOCKED]} in claim order, take them with a new
 * token, read everything back and log it.
 *
 * <p>With SKIP LOCKED, rows another claimer has locked are passed over, so claimers never queue
 * behind each other. Without it (BLOCKING) every claimer waits for the one ahead, and on InnoDB
 * they deadlock as their scans overlap; that strategy exists only for servers without SKIP LOCKED.
 *
 * <p>The Java engine's strategy for the contract and race tests, the benchmark and other tables;
 * the product claims through the database's {@code claim_articles} (since V4).
 */
final class LockingClaims implements ClaimStrategy {

    private final boolean skipLocked;

    LockingClaims(boolean skipLocked) {
        this.skipLocked = skipLocked;
    }

    @Override
    public ClaimResult claim(Transactions transactions, LeaseSql sql, ClaimRequest request, LeaseMetrics metrics) {
        return transactions.run("claim", tx -> claimIn(tx, sql, request));
    }

    private ClaimResult claimIn(DSLContext tx, LeaseSql sql, ClaimRequest request) {
        LeaseTable t = sql.t;
        List<Lease> refreshed = ClaimSteps.refreshOwn(tx, sql, request);
        List<Lease> claimed = List.of();
        int need = request.limit() - refreshed.size();
        if (need > 0) {
            SelectForUpdateStep<Record> candidates = ClaimSteps.candidates(tx, sql, request, need);
            List<Record> taken = skipLocked ? candidates.forUpdate().skipLocked().fetch() : candidates.forUpdate().fetch();
            if (!taken.isEmpty()) {
                List<RowKey> keys = taken.stream().map(sql::keyOf).toList();
                int changed = tx.update(t.table())
                        .set(ClaimSteps.newLease(t, request.owner(), request.expiry()))
                        .where(sql.keyIn(keys))
                        .execute();
                if (changed != keys.size()) {
                    throw new LeaseBugException("claim locked " + keys.size() + " rows but changed " + changed);
                }
                claimed = ClaimSteps.logTaken(tx, sql, request.owner(), taken);
            }
        }
        return ClaimSteps.result(tx, refreshed, claimed);
    }
}
