package org.copydesk.review;

import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.LEASE_EVENT;

import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.copydesk.lease.Lease;
import org.copydesk.lease.LeaseLost;
import org.copydesk.lease.LostReason;
import org.copydesk.lease.RowKey;
import org.copydesk.lease.ServerClock;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;

/**
 * The leases on articles as the database keeps them, read without locks: what an editor holds,
 * whether lapsed leases wait for the release service, and why a lease is no longer its holder's,
 * read from the history the operations wrote ({@link HistoryAction} is that contract). Every write
 * goes through the operations ({@link ReviewProcedures}).
 */
public final class ArticleLeases {

    /** The history's name for article rows ({@code lease_event.resource}). */
    public static final String RESOURCE = "article";

    private static final Field<LocalDateTime> SERVER_NOW = ServerClock.now().as("server_now");

    private final DSLContext dsl;

    ArticleLeases(DSLContext dsl) {
        this.dsl = dsl;
    }

    /** The article a lease is on. */
    static long articleId(Lease lease) {
        return ((Number) lease.key().single()).longValue();
    }

    /** The editor's valid leases as they are now (by the server's clock), by article id. */
    List<Lease> heldBy(String editorId) {
        return dsl.select(ARTICLE.ID, ARTICLE.LOCKED_BY, ARTICLE.LEASE_TOKEN, ARTICLE.EXPIRES_AT, SERVER_NOW)
                .from(ARTICLE)
                .where(ARTICLE.LOCKED_BY.eq(editorId)).and(ARTICLE.EXPIRES_AT.gt(ServerClock.now()))
                .orderBy(ARTICLE.ID)
                .fetch(r -> new Lease(RowKey.of(r.get(ARTICLE.ID)), r.get(ARTICLE.LOCKED_BY), r.get(ARTICLE.LEASE_TOKEN),
                        r.get(ARTICLE.EXPIRES_AT), r.get(SERVER_NOW)));
    }

    /**
     * Are lapsed leases left that the release service has not freed? {@code release_expired_leases}
     * skips rows another session has locked at that moment (a claim's scan locks the rows it passes
     * over), so a short chunk does not mean none are left.
     */
    boolean lapsedLeasesRemain() {
        return dsl.fetchExists(ARTICLE, ARTICLE.EXPIRES_AT.lt(ServerClock.now()).and(ARTICLE.LOCKED_BY.isNotNull()));
    }

    /** The article's newest revision when it is newer than the one this lease was handed. */
    Optional<Integer> newerRevision(Lease lease) {
        return dsl.select(ARTICLE.REVISION).from(ARTICLE)
                .where(ARTICLE.ID.eq(articleId(lease)))
                .and(ARTICLE.LEASE_TOKEN.eq(lease.token()))
                .and(ARTICLE.REVISION.ne(ARTICLE.HELD_REVISION))
                .fetchOptional(ARTICLE.REVISION);
    }

    /**
     * Why a write under {@code lease} changed nothing: from the article as it is and the history row
     * that ended the lease (the first one that names its token as the old one).
     */
    LeaseLost diagnose(Lease lease) {
        Record current = dsl.select(ARTICLE.LOCKED_BY, ARTICLE.LEASE_TOKEN).from(ARTICLE)
                .where(ARTICLE.ID.eq(articleId(lease))).fetchOne();
        if (current == null) {
            return LeaseLost.gone(lease, null);
        }
        String currentOwner = current.get(ARTICLE.LOCKED_BY);
        List<String> endings = Arrays.stream(HistoryAction.values()).filter(a -> a.endsLeaseAs().isPresent())
                .map(HistoryAction::code).toList();
        Record ending = dsl.select(LEASE_EVENT.ACTION, LEASE_EVENT.ACTOR, LEASE_EVENT.DETAIL, LEASE_EVENT.OCCURRED_AT)
                .from(LEASE_EVENT)
                .where(LEASE_EVENT.RESOURCE.eq(RESOURCE))
                .and(LEASE_EVENT.ROW_KEY.eq(Long.toString(articleId(lease))))
                .and(LEASE_EVENT.OLD_TOKEN.eq(lease.token()))
                .and(LEASE_EVENT.ACTION.in(endings))
                .orderBy(LEASE_EVENT.ID.asc())
                .limit(1)
                .fetchOne();
        if (ending != null) {
            LostReason reason = HistoryAction.of(ending.get(LEASE_EVENT.ACTION)).endsLeaseAs().orElseThrow();
            return new LeaseLost(lease, reason, ending.get(LEASE_EVENT.ACTOR), currentOwner, ending.get(LEASE_EVENT.DETAIL),
                    ending.get(LEASE_EVENT.OCCURRED_AT));
        }
        if (currentOwner != null && !currentOwner.equals(lease.owner())) {
            return LeaseLost.takenBy(lease, currentOwner);
        }
        if (currentOwner == null) {
            return LeaseLost.ranOut(lease);
        }
        // still this owner's article: under the same token the write matched nothing for another
        // reason; under a newer one the owner claimed it again after this lease ran out
        return current.get(ARTICLE.LEASE_TOKEN) == lease.token() ? LeaseLost.gone(lease, currentOwner)
                : LeaseLost.ranOut(lease, currentOwner);
    }
}
