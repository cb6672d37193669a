package org.copydesk.review;

import static org.copydesk.db.schema.Tables.LEASE_EVENT;

import java.time.Duration;
import java.util.List;
import org.copydesk.AllowedBecause;
import org.copydesk.lease.ServerClock;
import org.jooq.DSLContext;

/**
 * An article's history, read from the one append-only event table: lease events and review events
 * (decisions, quarantine, requeue, import). The database's operations write all of them, in the
 * same transaction as the change ({@link HistoryAction} names what they write); nothing here appends.
 */
public final class ArticleHistory {

    private final DSLContext dsl;

    public ArticleHistory(DSLContext dsl) {
        this.dsl = dsl;
    }

    public List<HistoryEntry> of(long articleId) {
        return dsl.selectFrom(LEASE_EVENT)
                .where(LEASE_EVENT.RESOURCE.eq(ArticleLeases.RESOURCE))
                .and(LEASE_EVENT.ROW_KEY.eq(Long.toString(articleId)))
                .orderBy(LEASE_EVENT.ID)
                .fetch(r -> new HistoryEntry(r.getId(), r.getOccurredAt(), r.getAction(), r.getActor(), r.getOldOwner(),
                        r.getNewOwner(), r.getLeaseToken(), r.getDetail()));
    }

    /**
     * Removes history older than {@code age} (server clock), in chunks so no long transaction holds
     * the table. Returns how many events were removed.
     */
    @AllowedBecause("an administrator's purge of old history (copydesk purge); no person's role may delete history")
    public long purgeOlderThan(Duration age) {
        if (age.isNegative() || age.isZero()) {
            throw new IllegalArgumentException(Phrase.of("review.purge.agePositive").text());
        }
        long total = 0;
        while (true) {
            int deleted = dsl.deleteFrom(LEASE_EVENT)
                    .where(LEASE_EVENT.OCCURRED_AT.lt(ServerClock.plus(ServerClock.now(), age.negated())))
                    .orderBy(LEASE_EVENT.OCCURRED_AT)
                    .limit(5000)
                    .execute();
            total += deleted;
            if (deleted < 5000) {
                return total;
            }
        }
    }
}
