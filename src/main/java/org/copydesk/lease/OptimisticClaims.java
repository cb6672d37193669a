package org.copydesk.lease;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;

/**
 * A claim without row locks while choosing (compare-and-set, like a document store's revision
 * check): read a window of candidates, then take each with an update that succeeds only if its
 * token is still the one read. Losers move on to the next candidate; a few rounds top the batch up.
 *
 * <p>Every claimer reads the same head of the queue, so the window is wider than the need: a
 * claimer that loses a row to another moves on without reading again. Candidates are tried in claim
 * order until the first loss. Then the claimer knows others are working the same rows, and it
 * tries the rest of each rank (same leading order and lane) in a random order of its own:
 * claimers that kept to the same order would lose to each other row after row. Priority and
 * "returning work first" hold exactly; only age within a rank becomes approximate, and only
 * under contention.
 *
 * <p>The Java engine's strategy for the contract and race tests, the benchmark and other tables;
 * the product's {@code OPTIMISTIC} claims run in the database's {@code claim_articles} (since V4).
 */
final class OptimisticClaims implements ClaimStrategy {

    private static final int ROUNDS = 4;

    private final int spread;

    OptimisticClaims(int spread) {
        this.spread = Math.max(1, spread);
    }

    @Override
    public ClaimResult claim(Transactions transactions, LeaseSql sql, ClaimRequest request, LeaseMetrics metrics) {
        List<Lease> refreshed = transactions.run("refresh", tx -> ClaimSteps.refreshOwn(tx, sql, request));
        List<Lease> claimed = new ArrayList<>();
        for (int round = 0; round < ROUNDS && refreshed.size() + claimed.size() < request.limit(); round++) {
            int need = request.limit() - refreshed.size() - claimed.size();
            int window = need * spread * (round + 1);
            List<Record> candidates = new ArrayList<>(transactions.run("read candidates", tx ->
                    ClaimSteps.candidates(tx, sql, request, window).fetch()));
            if (candidates.isEmpty()) {
                break;
            }
            boolean contended = false;
            for (int i = 0; i < candidates.size() && refreshed.size() + claimed.size() < request.limit(); i++) {
                Record candidate = candidates.get(i);
                List<Lease> won = transactions.run("compare-and-set claim", tx -> compareAndSet(tx, sql, request, candidate));
                if (won.isEmpty()) {
                    metrics.optimisticConflict();
                    if (!contended) {
                        contended = true;
                        shuffleWithinRanks(candidates.subList(i + 1, candidates.size()), request.order().rankFields(sql.t));
                    }
                }
                claimed.addAll(won);
            }
            if (candidates.size() < window) {
                break; // the queue has no more candidates than we saw
            }
        }
        return transactions.run("claim result", tx -> ClaimSteps.result(tx, refreshed, claimed));
    }

    /** Shuffles each run of equally ranked rows in place; the runs keep their order. */
    static void shuffleWithinRanks(List<Record> rows, List<Field<?>> rankFields) {
        int start = 0;
        while (start < rows.size()) {
            List<Object> rank = rankOf(rows.get(start), rankFields);
            int end = start + 1;
            while (end < rows.size() && rankOf(rows.get(end), rankFields).equals(rank)) {
                end++;
            }
            Collections.shuffle(rows.subList(start, end), ThreadLocalRandom.current());
            start = end;
        }
    }

    private static List<Object> rankOf(Record row, List<Field<?>> rankFields) {
        return rankFields.stream().map(f -> (Object) row.get(f)).toList();
    }

    /**
     * Takes the row only if nobody changed its lease since it was read: token and owner unchanged and
     * still claimable. The owner is compared too because the release service ends a lapsed lease
     * without a new token: a row read as "X's lapsed lease" and freed since must not be logged as a
     * take-over of X's lease (that would end X's lease twice in the event log).
     */
    private static List<Lease> compareAndSet(DSLContext tx, LeaseSql sql, ClaimRequest request, Record candidate) {
        LeaseTable t = sql.t;
        int changed = tx.update(t.table())
                .set(ClaimSteps.newLease(t, request.owner(), request.expiry()))
                .where(sql.keyIs(sql.keyOf(candidate)))
                .and(t.token().eq(candidate.get(t.token())))
                .and(t.owner().isNotDistinctFrom(candidate.get(t.owner())))
                .and(sql.claimable())
                .and(request.scope())
                .execute();
        if (LeaseSql.atMostOne(changed, "compare-and-set claim") == 0) {
            return List.of();
        }
        return ClaimSteps.logTaken(tx, sql, request.owner(), List.of(candidate));
    }
}
