package org.copydesk.review;

import static org.copydesk.db.schema.Tables.ARTICLE;

import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import org.copydesk.db.schema.enums.ArticleStatus;
import org.copydesk.lease.ServerClock;
import org.jooq.DSLContext;
import org.jooq.Record8;
import org.jooq.Select;
import org.jooq.SelectLimitPercentStep;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;

/**
 * The cheap question an editor's window asks every few seconds so that its list never goes stale:
 * which leases does the database say I hold (id, token, expiry), and — only while I have room —
 * which articles could I get on my desks now. One statement, two index range reads:
 * {@code ix_article_locked_by} for the editor's own leases (a handful of rows) and
 * {@code ix_article_desk_status} for the waiting work, stopped after {@link #WAITING_LIMIT} rows;
 * at capacity, the first alone.
 * Nothing is locked or written; the window asks the expensive questions (who took it, why, the
 * article's text) only when this answer changed. {@code ListWatchPlanTest} checks the plan.
 *
 * <p>Each held lease also says whether a newer revision of its article arrived since the lease was
 * handed out: the row is read anyway for its token, so "a newer version arrived" costs
 * no statement of its own, however many articles an editor holds.
 */
public final class ListWatch {

    /**
     * The waiting articles read at most: the nudge says "20 or more" beyond that. Each is a row
     * read every 3 s in every window with room; the benchmark measured 100 as doubling the
     * server's polling CPU on a backlog (docs/benchmarks.md).
     */
    public static final int WAITING_LIMIT = 20;

    /**
     * A lease the database says the editor holds, as of {@code serverNow}.
     *
     * @param newerRevision the article's newest revision when it is newer than the one this lease
     *                      was handed (what the holder reads); null when it is not
     * @param dueAt         when the article is due (UTC), null when it has no due time: a supervisor may
     *                      move it while the editor holds the article (the row is read anyway)
     */
    public record HeldLease(long articleId, long token, LocalDateTime expiresAt, Integer newerRevision, LocalDateTime dueAt) {

        public HeldLease(long articleId, long token, LocalDateTime expiresAt, Integer newerRevision) {
            this(articleId, token, expiresAt, newerRevision, null);
        }

        /** The due time as {@link HeldArticle#dueAt()} has it. */
        public java.time.Instant dueInstant() {
            return dueAt == null ? null : dueAt.toInstant(java.time.ZoneOffset.UTC);
        }
    }

    /** An article on one of the editor's desks that a claim could hand out now. */
    public record Waiting(long articleId, String desk) {
    }

    /**
     * @param held    the editor's leases that have not run out
     * @param waiting claimable articles on the desks asked about (empty when not asked), at most
     *                {@link #WAITING_LIMIT}
     */
    public record Snapshot(LocalDateTime serverNow, List<HeldLease> held, List<Waiting> waiting) {

        public Snapshot {
            held = List.copyOf(held);
            waiting = List.copyOf(waiting);
        }

        /** Time left on a lease, on the server's clock. */
        public Duration remaining(HeldLease lease) {
            Duration d = Duration.between(serverNow, lease.expiresAt());
            return d.isNegative() ? Duration.ZERO : d;
        }
    }

    private final DSLContext dsl;

    ListWatch(DSLContext dsl) {
        this.dsl = dsl;
    }

    /**
     * @param desks the desks the editor takes work from today; empty: do not look for waiting work
     *              (the editor is at capacity)
     */
    public Snapshot read(String editorId, List<String> desks) {
        List<HeldLease> leases = new ArrayList<>();
        List<Waiting> waiting = new ArrayList<>();
        LocalDateTime serverNow = null;
        for (Record8<String, Long, Long, LocalDateTime, String, LocalDateTime, Integer, LocalDateTime> r : query(editorId, desks).fetch()) {
            serverNow = r.value6();
            switch (r.value1()) {
                case "h" -> leases.add(new HeldLease(r.value2(), r.value3(), r.value4(), r.value7(), r.value8()));
                case "w" -> waiting.add(new Waiting(r.value2(), r.value5()));
                default -> { } // the clock row
            }
        }
        if (serverNow == null) { // at capacity, and every lease gone: the clock alone
            serverNow = dsl.select(ServerClock.now()).fetchOne(0, LocalDateTime.class);
        }
        return new Snapshot(serverNow, leases, waiting);
    }

    /** Claimable now: queued, available, and free or run out (the claim's own rule, read without locking). */
    private SelectLimitPercentStep<Record8<String, Long, Long, LocalDateTime, String, LocalDateTime, Integer, LocalDateTime>> waiting(
            List<String> desks) {
        var now = ServerClock.now();
        return dsl.select(DSL.inline("w").as("kind"), ARTICLE.ID, DSL.castNull(SQLDataType.BIGINT).as("lease_token"),
                        DSL.castNull(SQLDataType.LOCALDATETIME(6)).as("expires_at"), ARTICLE.DESK_ID, now.as("server_now"),
                        DSL.castNull(SQLDataType.INTEGER).as("newer_revision"), DSL.castNull(SQLDataType.LOCALDATETIME(3)).as("due_at"))
                // Forced: where a quarter of the table waits on these desks the optimizer prefers a
                // scan that stops at the limit; where little waits, that scan would read the whole
                // table every 3 s in every window. The index read is bounded either way.
                .from(ARTICLE.forceIndex("ix_article_desk_status"))
                .where(ARTICLE.DESK_ID.in(desks))
                .and(ARTICLE.STATUS.eq(ArticleStatus.queued))
                .and(ARTICLE.AVAILABLE_AT.le(now))
                .and(ARTICLE.LOCKED_BY.isNull().or(ARTICLE.EXPIRES_AT.le(now)))
                .limit(WAITING_LIMIT);
    }

    /** The statement {@link #read} sends, with values inlined (for EXPLAIN in tests and the benchmark). */
    String statement(String editorId, List<String> desks) {
        return dsl.renderInlined(query(editorId, desks));
    }

    private Select<Record8<String, Long, Long, LocalDateTime, String, LocalDateTime, Integer, LocalDateTime>> query(String editorId,
            List<String> desks) {
        var now = ServerClock.now();
        var held = dsl.select(DSL.inline("h").as("kind"), ARTICLE.ID, ARTICLE.LEASE_TOKEN, ARTICLE.EXPIRES_AT,
                        ARTICLE.DESK_ID.as("desk"), now.as("server_now"),
                        DSL.when(ARTICLE.REVISION.gt(ARTICLE.HELD_REVISION), ARTICLE.REVISION)
                                .else_(DSL.castNull(SQLDataType.INTEGER)).as("newer_revision"), ARTICLE.DUE_AT)
                .from(ARTICLE)
                .where(ARTICLE.LOCKED_BY.eq(editorId))
                .and(ARTICLE.EXPIRES_AT.gt(now));
        if (desks.isEmpty()) {
            // At capacity, the window's usual state while it holds work, every 3 s: the editor's own
            // leases alone, each row with the clock. A UNION with a clock row cost the server twice
            // as much (172-254 against 88-90 us a read: ListReadCost); when no lease comes back,
            // read() asks for the clock alone.
            return held;
        }
        // one row with the server's clock even when the editor holds nothing and nothing waits
        var clock = dsl.select(DSL.inline("n").as("kind"), DSL.castNull(SQLDataType.BIGINT).as("id"),
                DSL.castNull(SQLDataType.BIGINT).as("lease_token"), DSL.castNull(SQLDataType.LOCALDATETIME(6)).as("expires_at"),
                DSL.inline((String) null).as("desk"), now.as("server_now"), DSL.castNull(SQLDataType.INTEGER).as("newer_revision"),
                DSL.castNull(SQLDataType.LOCALDATETIME(3)).as("due_at"));
        return held.unionAll(waiting(desks)).unionAll(clock);
    }
}
