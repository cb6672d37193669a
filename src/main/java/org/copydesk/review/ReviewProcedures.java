package org.copydesk.review;

import java.time.LocalDateTime;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.copydesk.lease.ClaimStrategyKind;
import org.copydesk.lease.Lease;
import org.copydesk.lease.LeaseEngine;
import org.copydesk.lease.RowKey;
import org.jooq.DSLContext;
import org.jooq.Record;
import org.jooq.Result;
import org.jooq.Results;

/**
 * The database's operations on articles ({@code db/routines}, one file each), one call
 * each, and the only place that names them. Editors and supervisors change data through these and
 * nothing else; the database checks who calls, so what this class sends is never trusted.
 *
 * <p>Each procedure is a transaction of its own. A deadlock or lock wait timeout rolls it back and
 * it is called again (bounded, through the lease engine's retry policy), and so is an operation safe
 * to repeat whose connection was lost ({@link #callSafeToRepeat}); a refusal by the rules
 * becomes an {@link OperationRefusedException} with the database's words.
 *
 * <p>{@code as}: null acts for the signed-in person; a name acts for that editor, which only an
 * administrator's account may do (the command line on the embedded server, tests).
 */
public final class ReviewProcedures {

    /** What a claim call returned: the summary and every lease the editor holds afterwards. */
    record Claimed(LocalDateTime serverNow, int refreshed, int claimed, int capacity, LocalDateTime nextAvailableAt,
                   List<HeldArticle> held) {
    }

    /** One lease the heartbeat asked to renew: renewed, or no longer held under its token. */
    record Renewed(long articleId, boolean renewed, Lease lease) {
    }

    /** What a decision call returned; see {@code decide_article}. */
    record Decided(String outcome, long articleId, String verdict, String status, LocalDateTime returnsAt,
                   boolean quarantined) {
    }

    private final DSLContext dsl;
    private final LeaseEngine retries;
    private final ClaimStrategyKind strategy;

    ReviewProcedures(DSLContext dsl, LeaseEngine retries) {
        this.dsl = dsl;
        this.retries = retries;
        this.strategy = retries.strategy();
    }

    Claimed claim(String as, List<String> desks, Integer limit, Integer maxLeaseSeconds) {
        String deskList = desks == null ? null : String.join(",", desks);
        Results results = callSafeToRepeat("claim", () -> dsl.fetchMany("call claim_articles(?, ?, ?, ?, ?)", as, deskList, limit,
                maxLeaseSeconds, strategy.name()));
        Record summary = results.get(0).get(0);
        List<HeldArticle> held = results.get(1).map(r -> new HeldArticle(r.get("id", Long.class),
                r.get("external_id", String.class), r.get("desk_id", String.class), r.get("title", String.class),
                r.get("byline", String.class), r.get("priority", Integer.class), r.get("attempts", Integer.class),
                r.get("available_at", LocalDateTime.class), leaseOf(r, "id", "locked_by", "lease_token")));
        return new Claimed(summary.get("server_now", LocalDateTime.class), summary.get("refreshed", Integer.class),
                summary.get("claimed", Integer.class), summary.get("capacity", Integer.class),
                summary.get("next_available_at", LocalDateTime.class), held);
    }

    List<Renewed> renew(String as, List<Lease> leases) {
        String pairs = leases.stream().map(l -> "[" + ((Number) l.key().single()).longValue() + "," + l.token() + "]")
                .collect(Collectors.joining(",", "[", "]"));
        String owner = leases.isEmpty() ? null : leases.get(0).owner();
        Result<Record> rows = callSafeToRepeat("renew", () -> dsl.fetch("call renew_leases(?, ?)", as, pairs));
        return rows.map(r -> new Renewed(r.get("id", Long.class), r.get("renewed", Integer.class) == 1,
                new Lease(RowKey.of(r.get("id", Long.class)), owner, r.get("lease_token", Long.class),
                        r.get("expires_at", LocalDateTime.class), r.get("server_now", LocalDateTime.class))));
    }

    /** True if released; false if the lease was no longer held under its token. */
    boolean release(String as, Lease lease, String detail) {
        Result<Record> rows = call("release", () -> dsl.fetch("call release_article(?, ?, ?, ?)", as,
                lease.key().single(), lease.token(), detail));
        return rows.get(0).get("released", Integer.class) == 1;
    }

    Decided decide(String as, Lease lease, UUID requestId, Verdict verdict, String notes) {
        Result<Record> rows = callSafeToRepeat("decision", () -> dsl.fetch("call decide_article(?, ?, ?, ?, ?, ?)", as,
                lease.key().single(), lease.token(), requestId.toString(), verdict.code(), notes));
        Record r = rows.get(0);
        return new Decided(r.get("outcome", String.class), r.get("article_id", Long.class), r.get("verdict", String.class),
                r.get("status", String.class), r.get("returns_at", LocalDateTime.class),
                r.get("quarantined", Integer.class) == 1);
    }

    /** The lease holder takes the newest revision (take_revision, V9); empty when the lease is no longer held. */
    Optional<ArticleRevision> takeRevision(String as, Lease lease) {
        Result<Record> rows = call("take revision", () -> dsl.fetch("call take_revision(?, ?, ?)", as,
                lease.key().single(), lease.token()));
        return rows.stream().filter(r -> r.get("taken", Integer.class) == 1).findFirst()
                .map(r -> new ArticleRevision(r.get("revision", Integer.class), r.get("title", String.class),
                        r.get("byline", String.class), r.get("body", String.class)));
    }

    /** The article's newest revision when it is newer than the one this lease was handed (a read). */
    Optional<Integer> newerRevision(Lease lease) {
        return call("revision check", () -> dsl.select(org.copydesk.db.schema.Tables.ARTICLE.REVISION)
                .from(org.copydesk.db.schema.Tables.ARTICLE)
                .where(org.copydesk.db.schema.Tables.ARTICLE.ID.eq(((Number) lease.key().single()).longValue()))
                .and(org.copydesk.db.schema.Tables.ARTICLE.LEASE_TOKEN.eq(lease.token()))
                .and(org.copydesk.db.schema.Tables.ARTICLE.REVISION.ne(org.copydesk.db.schema.Tables.ARTICLE.HELD_REVISION))
                .fetchOptional(org.copydesk.db.schema.Tables.ARTICLE.REVISION));
    }

    void saveDraft(String as, long articleId, String verdictCode, String notes) {
        callSafeToRepeat("save draft", () -> dsl.execute("call save_draft(?, ?, ?, ?)", as, articleId, verdictCode, notes));
    }

    void recordPresence(String as) {
        callSafeToRepeat("heartbeat", () -> dsl.execute("call record_presence(?)", as));
    }

    /** Frees up to {@code batch} lapsed leases; the leases it ended, as they were. */
    List<Lease> releaseExpired(int batch) {
        Result<Record> rows = callSafeToRepeat("release expired", () -> dsl.fetch("call release_expired_leases(?)", batch));
        return rows.map(r -> leaseOf(r, "id", "owner", "token"));
    }

    /**
     * Are lapsed leases left that {@link #releaseExpired} did not return? A plain read (no locks):
     * {@code release_expired_leases} skips rows another session has locked at that moment (a
     * claim's scan locks the rows it passes over), so a short chunk does not mean none are left.
     */
    boolean lapsedLeasesRemain() {
        return dsl.fetchExists(org.copydesk.db.schema.Tables.ARTICLE, org.copydesk.db.schema.Tables.ARTICLE.EXPIRES_AT
                .lt(org.copydesk.lease.ServerClock.now()).and(org.copydesk.db.schema.Tables.ARTICLE.LOCKED_BY.isNotNull()));
    }

    Optional<Lease> forceRelease(String as, long articleId, String reason) {
        Result<Record> rows = call("force release", () -> dsl.fetch("call force_release_article(?, ?, ?)", as, articleId,
                reason));
        return rows.stream().findFirst().map(r -> leaseOf(r, "article_id", "owner", "lease_token"));
    }

    Lease reassign(String as, long articleId, String toEditor, boolean overrideCapacity, String reason) {
        Result<Record> rows = call("reassign", () -> dsl.fetch("call reassign_article(?, ?, ?, ?, ?)", as, articleId,
                toEditor, overrideCapacity ? 1 : 0, reason));
        return leaseOf(rows.get(0), "article_id", "owner", "lease_token");
    }

    Optional<Lease> extend(String as, long articleId, long seconds) {
        Result<Record> rows = call("extend", () -> dsl.fetch("call extend_lease(?, ?, ?)", as, articleId, (int) seconds));
        return rows.stream().findFirst().map(r -> leaseOf(r, "article_id", "owner", "lease_token"));
    }

    private static Lease leaseOf(Record r, String id, String owner, String token) {
        return new Lease(RowKey.of(r.get(id, Long.class)), r.get(owner, String.class), r.get(token, Long.class),
                r.get("expires_at", LocalDateTime.class), r.get("server_now", LocalDateTime.class));
    }

    private <T> T call(String operation, Supplier<T> work) {
        try {
            return retries.retrying(operation, work);
        } catch (RuntimeException e) {
            throw OperationRefusedException.of(e).map(RuntimeException.class::cast).orElse(e);
        }
    }

    /**
     * For operations that may run twice: also retried when the connection was lost under them
     * (killed, the server restarted, a cluster node failed). A claim or a heartbeat repeated only
     * refreshes what the editor holds; a decision is recognised by its request id; a draft is
     * overwritten with the same text; the release service's operations find nothing left to do.
     * Releasing, forcing, reassigning and extending are not: a second run would report a lease as
     * lost that the first run gave up, or add the extra time twice.
     */
    private <T> T callSafeToRepeat(String operation, Supplier<T> work) {
        try {
            return retries.retryingSafeToRepeat(operation, work);
        } catch (RuntimeException e) {
            throw OperationRefusedException.of(e).map(RuntimeException.class::cast).orElse(e);
        }
    }
}
