package org.copydesk.review;

import java.time.Duration;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Collectors;
import org.copydesk.lease.ClaimStrategyKind;
import org.copydesk.lease.Lease;
import org.copydesk.lease.RowKey;
import org.jooq.Record;
import org.jooq.Result;
import org.jooq.Results;

/**
 * The database's operations on articles, one call each, with their answers read into types.
 * Editors and supervisors change data through these and nothing else; the database checks who
 * calls, so what this class sends is never trusted. Retries and refusals: {@link DatabaseOperations}.
 *
 * <p>{@code as}: null acts for the signed-in person; a name acts for that editor, which only an
 * administrator's account may do (the command line on the embedded server, tests).
 */
final class ReviewProcedures {

    /** What a claim call returned: the summary and every lease the editor holds afterwards. */
    record Claimed(LocalDateTime serverNow, int refreshed, int claimed, int capacity, LocalDateTime nextAvailableAt,
                   List<HeldArticle> held) {
    }

    /** One lease the heartbeat asked to renew: renewed, or no longer held under its token. */
    record Renewed(long articleId, boolean renewed, Lease lease) {
    }

    /** What {@code decide_article} answers. */
    enum DecideOutcome implements DatabaseOperations.Outcome {
        /** Applied now. */
        RECORDED,
        /** The same request id was applied before (a retry after a lost reply). */
        ALREADY,
        /** No such article. */
        GONE,
        /** Not held under this owner and token (or no longer waiting for review): nothing changed. */
        LOST,
        /** A newer revision arrived while the editor read: the notes were kept as a draft. */
        OUTDATED
    }

    /** What a decision call returned; {@code stage}: where the article is now (null on a desk without stages). */
    record Decided(DecideOutcome outcome, long articleId, String verdict, String status, LocalDateTime returnsAt,
                   boolean quarantined, String stage) {
    }

    private final DatabaseOperations operations;
    private final ClaimStrategyKind strategy;

    ReviewProcedures(DatabaseOperations operations, ClaimStrategyKind strategy) {
        this.operations = operations;
        this.strategy = strategy;
    }

    ClaimStrategyKind strategy() {
        return strategy;
    }

    Claimed claim(String as, List<String> desks, Integer limit, Integer maxLeaseSeconds) {
        String deskList = desks == null ? null : String.join(",", desks);
        Results results = operations.fetchMany(Operation.CLAIM_ARTICLES, as, deskList, limit, maxLeaseSeconds, strategy.name());
        Record summary = results.get(0).get(0);
        List<HeldArticle> held = results.get(1).map(r -> new HeldArticle(r.get("id", Long.class),
                r.get("external_id", String.class), r.get("desk_id", String.class), r.get("title", String.class),
                r.get("byline", String.class), r.get("priority", Integer.class), r.get("attempts", Integer.class),
                r.get("available_at", LocalDateTime.class), leaseOf(r, "id", "locked_by", "lease_token"),
                r.get("stage_id", String.class), DueTimes.instant(r.get("due_at", LocalDateTime.class))));
        return new Claimed(summary.get("server_now", LocalDateTime.class), summary.get("refreshed", Integer.class),
                summary.get("claimed", Integer.class), summary.get("capacity", Integer.class),
                summary.get("next_available_at", LocalDateTime.class), held);
    }

    List<Renewed> renew(String as, List<Lease> leases) {
        String pairs = leases.stream().map(l -> "[" + ArticleLeases.articleId(l) + "," + l.token() + "]")
                .collect(Collectors.joining(",", "[", "]"));
        String owner = leases.isEmpty() ? null : leases.get(0).owner();
        Result<Record> rows = operations.fetch(Operation.RENEW_LEASES, as, pairs);
        return rows.map(r -> new Renewed(r.get("id", Long.class), DatabaseOperations.flag(Operation.RENEW_LEASES, r, "renewed"),
                new Lease(RowKey.of(r.get("id", Long.class)), owner, r.get("lease_token", Long.class),
                        r.get("expires_at", LocalDateTime.class), r.get("server_now", LocalDateTime.class))));
    }

    /** True if released; false if the lease was no longer held under its token. */
    boolean release(String as, Lease lease, String detail) {
        Result<Record> rows = operations.fetch(Operation.RELEASE_ARTICLE, as, ArticleLeases.articleId(lease), lease.token(),
                detail);
        return DatabaseOperations.flag(Operation.RELEASE_ARTICLE, rows.get(0), "released");
    }

    Decided decide(String as, Lease lease, UUID requestId, Verdict verdict, String notes) {
        return decide(as, lease, requestId, verdict, notes, null, List.of());
    }

    /**
     * A decision, on a desk with stages perhaps naming the earlier stage a send-back goes to and the
     * stages asked for ({@code decide_at_stage}; {@code decide_article} is the same without them).
     */
    Decided decide(String as, Lease lease, UUID requestId, Verdict verdict, String notes, String toStage, List<String> ask) {
        Record r = operations.fetch(Operation.DECIDE_AT_STAGE, as, ArticleLeases.articleId(lease), lease.token(),
                requestId.toString(), verdict.code(), notes, toStage, ask.isEmpty() ? null : String.join(",", ask)).get(0);
        DecideOutcome outcome = DatabaseOperations.outcome(Operation.DECIDE_AT_STAGE, DecideOutcome.class,
                r.get("outcome", String.class));
        return new Decided(outcome, r.get("article_id", Long.class), r.get("verdict", String.class),
                r.get("status", String.class), r.get("returns_at", LocalDateTime.class),
                DatabaseOperations.flag(Operation.DECIDE_AT_STAGE, r, "quarantined"), r.get("stage_id", String.class));
    }

    /** The lease holder takes the newest revision; empty when the lease is no longer held. */
    Optional<ArticleRevision> takeRevision(String as, Lease lease) {
        Result<Record> rows = operations.fetch(Operation.TAKE_REVISION, as, ArticleLeases.articleId(lease), lease.token());
        return rows.stream().filter(r -> DatabaseOperations.flag(Operation.TAKE_REVISION, r, "taken")).findFirst()
                .map(r -> new ArticleRevision(r.get("revision", Integer.class), r.get("title", String.class),
                        r.get("byline", String.class), r.get("body", String.class)));
    }

    void saveDraft(String as, long articleId, String verdictCode, String notes) {
        operations.execute(Operation.SAVE_DRAFT, as, articleId, verdictCode, notes);
    }

    void recordPresence(String as) {
        operations.execute(Operation.RECORD_PRESENCE, as);
    }

    /** Frees up to {@code batch} lapsed leases; the leases it ended, as they were. */
    List<Lease> releaseExpired(int batch) {
        return operations.fetch(Operation.RELEASE_EXPIRED_LEASES, batch).map(ReviewProcedures::releasedLeaseOf);
    }

    /**
     * Takes the newsroom's sweep turn if it is due (asking for {@code interval} until the next one)
     * and, if taken, sweeps in the same call; turn or not, lists the prepared XA transactions. See
     * {@code take_sweep_turn}.
     */
    SweepTurn takeSweepTurn(Duration interval) {
        return operations.read(Operation.TAKE_SWEEP_TURN, SweepTurn.Reader::new, (int) Math.min(Integer.MAX_VALUE, interval.toMillis()));
    }

    Optional<Lease> forceRelease(String as, long articleId, String reason) {
        Result<Record> rows = operations.fetch(Operation.FORCE_RELEASE_ARTICLE, as, articleId, reason);
        return rows.stream().findFirst().map(r -> leaseOf(r, "article_id", "owner", "lease_token"));
    }

    Lease reassign(String as, long articleId, String toEditor, boolean overrideCapacity, boolean outsideDesk, String reason) {
        Result<Record> rows = operations.fetch(Operation.REASSIGN_ARTICLE, as, articleId, toEditor, overrideCapacity ? 1 : 0,
                outsideDesk ? 1 : 0, reason);
        return leaseOf(rows.get(0), "article_id", "owner", "lease_token");
    }

    Optional<Lease> extend(String as, long articleId, long seconds) {
        Result<Record> rows = operations.fetch(Operation.EXTEND_LEASE, as, articleId, (int) seconds);
        return rows.stream().findFirst().map(r -> leaseOf(r, "article_id", "owner", "lease_token"));
    }

    /** A lease as {@code release_expired_leases} answers it. */
    static Lease releasedLeaseOf(Record r) {
        return leaseOf(r, "id", "owner", "token");
    }

    private static Lease leaseOf(Record r, String id, String owner, String token) {
        return new Lease(RowKey.of(r.get(id, Long.class)), r.get(owner, String.class), r.get(token, Long.class),
                r.get("expires_at", LocalDateTime.class), r.get("server_now", LocalDateTime.class));
    }
}
