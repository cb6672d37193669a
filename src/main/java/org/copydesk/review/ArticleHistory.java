package org.copydesk.review;

import static org.copydesk.db.schema.Tables.LEASE_EVENT;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.copydesk.AllowedBecause;
import org.copydesk.lease.ServerClock;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;

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

    /**
     * The article's rows, and where one of its holders reloaded while holding it, a "refresh" line
     * from that editor's refresh row ({@link RefreshedLeases}): the reload writes one row for all the
     * leases it refreshed, not one per article.
     */
    public List<HistoryEntry> of(long articleId) {
        List<HistoryEntry> own = dsl.selectFrom(LEASE_EVENT)
                .where(LEASE_EVENT.RESOURCE.eq(ArticleLeases.RESOURCE))
                .and(LEASE_EVENT.ROW_KEY.eq(Long.toString(articleId)))
                .orderBy(LEASE_EVENT.ID)
                .fetch(r -> new HistoryEntry(r.getId(), r.getOccurredAt(), r.getAction(), r.getActor(), r.getOldOwner(),
                        r.getNewOwner(), r.getLeaseToken(), r.getDetail()));
        Condition holds = holds(own);
        if (holds == null) {
            return own;
        }
        List<HistoryEntry> all = new ArrayList<>(own);
        // each holder's refresh rows while they held it: ranges of ix_lease_event_row (resource, row_key, id)
        dsl.selectFrom(LEASE_EVENT)
                .where(LEASE_EVENT.RESOURCE.eq(RefreshedLeases.RESOURCE)).and(LEASE_EVENT.ACTION.eq(HistoryAction.REFRESH.code()))
                .and(holds)
                .fetch().forEach(r -> RefreshedLeases.parse(r.getDetail()).stream().filter(l -> l.articleId() == articleId)
                        .forEach(l -> all.add(new HistoryEntry(r.getId(), r.getOccurredAt(), r.getAction(), r.getActor(),
                                r.getOldOwner(), r.getNewOwner(), l.token(), null))));
        all.sort(Comparator.comparingLong(HistoryEntry::id));
        return all;
    }

    /**
     * Who held the article between which history rows, as a condition on the editors' refresh rows:
     * from a claim or reassignment to the row that ended that lease (or on). Null: never held.
     */
    private static Condition holds(List<HistoryEntry> own) {
        List<Condition> spans = new ArrayList<>();
        String holder = null;
        long from = 0;
        for (HistoryEntry e : own) {
            HistoryAction action = HistoryAction.of(e.action());
            if (holder != null && action.endsLeaseAs().isPresent()) {
                spans.add(LEASE_EVENT.ROW_KEY.eq(holder).and(LEASE_EVENT.ID.between(from, e.id())));
                holder = null;
            }
            if ((action == HistoryAction.CLAIM || action == HistoryAction.REASSIGN) && e.newOwner() != null) {
                holder = e.newOwner();
                from = e.id();
            }
        }
        if (holder != null) {
            spans.add(LEASE_EVENT.ROW_KEY.eq(holder).and(LEASE_EVENT.ID.gt(from)));
        }
        return spans.isEmpty() ? null : DSL.or(spans);
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
