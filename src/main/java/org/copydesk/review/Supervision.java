package org.copydesk.review;

import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.DECISION;
import static org.copydesk.db.schema.Tables.DESK;
import static org.copydesk.db.schema.Tables.DESK_STAGE;
import static org.copydesk.db.schema.Tables.EDITOR;
import static org.copydesk.db.schema.Tables.LEASE_EVENT;

import java.time.Duration;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.copydesk.db.schema.enums.ArticleStatus;
import org.copydesk.db.schema.enums.DecisionVerdict;
import org.copydesk.lease.Lease;
import org.copydesk.lease.ServerClock;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.impl.DSL;

/** What supervisors see and do: who holds what, queue health, force-release, reassign, extend. */
public final class Supervision {

    /**
     * One active lease. Times are the server's clock; {@code serverNow} is when this was read, so
     * time left is {@code expiresAt - serverNow} whatever the PC's clock says. {@code stageName}: the
     * stage of the desk's review chain the lease is for; null on a desk without stages.
     */
    public record ActiveLease(long articleId, String title, String desk, int priority, String editorId, String editorName,
                              LocalDateTime claimedAt, int renewals, LocalDateTime expiresAt, LocalDateTime serverNow,
                              LocalDateTime editorLastSeen, String stageName) {

        /** A lease on a desk without stages. */
        public ActiveLease(long articleId, String title, String desk, int priority, String editorId, String editorName,
                           LocalDateTime claimedAt, int renewals, LocalDateTime expiresAt, LocalDateTime serverNow,
                           LocalDateTime editorLastSeen) {
            this(articleId, title, desk, priority, editorId, editorName, claimedAt, renewals, expiresAt, serverNow, editorLastSeen, null);
        }

        public Duration timeLeft() {
            Duration d = Duration.between(serverNow, expiresAt);
            return d.isNegative() ? Duration.ZERO : d;
        }
    }

    /** Counts for one desk. */
    public record DeskHealth(String desk, String name, int waitingNow, int scheduled, int inReview, int sentBack,
                             int quarantined, int finishedToday, LocalDateTime oldestWaitingSince) {
    }

    /**
     * Changes since an event id: the article ids touched, the editors who reloaded (a reload writes
     * one row for all the leases it refreshed, {@link RefreshedLeases}: every lease they hold may
     * have a new end), and the newest event id seen.
     */
    public record Changes(Set<Long> articleIds, Set<String> reloadedBy, long latestEventId) {
    }

    private final DSLContext dsl;
    private final ReviewProcedures procedures;
    private final Newsroom newsroom;
    private final String sessionUser;

    Supervision(DSLContext dsl, ReviewProcedures procedures, Newsroom newsroom, String sessionUser) {
        this.dsl = dsl;
        this.procedures = procedures;
        this.newsroom = newsroom;
        this.sessionUser = sessionUser;
    }

    /** Null when the supervisor is the signed-in account; an administrator's tools name them. */
    private String actingFor(String supervisor) {
        return supervisor == null || supervisor.equals(sessionUser) ? null : supervisor;
    }

    /** Every valid lease, soonest to expire first. */
    public List<ActiveLease> activeLeases() {
        return activeLeases(DSL.noCondition());
    }

    /** Valid leases on the given articles (for incremental refresh). */
    public List<ActiveLease> activeLeases(Set<Long> articleIds) {
        return articleIds.isEmpty() ? List.of() : activeLeases(ARTICLE.ID.in(articleIds));
    }

    /** Valid leases on the given articles and those the given editors hold (for incremental refresh). */
    public List<ActiveLease> activeLeases(Set<Long> articleIds, Set<String> holders) {
        if (holders.isEmpty()) {
            return activeLeases(articleIds);
        }
        Condition held = ARTICLE.LOCKED_BY.in(holders);
        return activeLeases(articleIds.isEmpty() ? held : ARTICLE.ID.in(articleIds).or(held));
    }

    private List<ActiveLease> activeLeases(Condition which) {
        Field<LocalDateTime> now = ServerClock.now().as("server_now");
        return dsl.select(ARTICLE.ID, ARTICLE.TITLE, ARTICLE.DESK_ID, ARTICLE.PRIORITY, ARTICLE.LOCKED_BY, EDITOR.DISPLAY_NAME,
                        ARTICLE.CLAIMED_AT, ARTICLE.RENEWALS, ARTICLE.EXPIRES_AT, now, EDITOR.LAST_SEEN_AT, DESK_STAGE.NAME)
                .from(ARTICLE)
                .leftJoin(EDITOR).on(EDITOR.ID.eq(ARTICLE.LOCKED_BY))
                .leftJoin(DESK_STAGE).on(DESK_STAGE.DESK_ID.eq(ARTICLE.DESK_ID)).and(DESK_STAGE.STAGE_ID.eq(ARTICLE.STAGE_ID))
                .where(ARTICLE.LOCKED_BY.isNotNull())
                .and(ARTICLE.EXPIRES_AT.gt(ServerClock.now()))
                .and(which)
                .orderBy(ARTICLE.EXPIRES_AT)
                .fetch(r -> new ActiveLease(r.get(ARTICLE.ID), r.get(ARTICLE.TITLE), r.get(ARTICLE.DESK_ID),
                        r.get(ARTICLE.PRIORITY), r.get(ARTICLE.LOCKED_BY),
                        r.get(EDITOR.DISPLAY_NAME) == null ? r.get(ARTICLE.LOCKED_BY) : r.get(EDITOR.DISPLAY_NAME),
                        r.get(ARTICLE.CLAIMED_AT), r.get(ARTICLE.RENEWALS), r.get(ARTICLE.EXPIRES_AT),
                        r.get(now), r.get(EDITOR.LAST_SEEN_AT), r.get(DESK_STAGE.NAME)));
    }

    /** Articles whose leases or states changed after {@code afterEventId}. */
    public Changes changesSince(long afterEventId) {
        Condition reload = LEASE_EVENT.RESOURCE.eq(RefreshedLeases.RESOURCE).and(LEASE_EVENT.ACTION.eq(HistoryAction.REFRESH.code()));
        List<Record> rows = dsl.select(LEASE_EVENT.RESOURCE, LEASE_EVENT.ROW_KEY, DSL.max(LEASE_EVENT.ID).as("latest"))
                .from(LEASE_EVENT)
                .where(LEASE_EVENT.ID.gt(afterEventId))
                .and(LEASE_EVENT.RESOURCE.eq(ArticleLeases.RESOURCE).or(reload))
                .groupBy(LEASE_EVENT.RESOURCE, LEASE_EVENT.ROW_KEY)
                .fetch().stream().map(r -> (Record) r).toList();
        long latest = rows.stream().mapToLong(r -> r.get("latest", Long.class)).max().orElse(afterEventId);
        Set<Long> ids = rows.stream().filter(r -> r.get(LEASE_EVENT.RESOURCE).equals(ArticleLeases.RESOURCE))
                .map(r -> r.get(LEASE_EVENT.ROW_KEY)).filter(k -> k.chars().allMatch(Character::isDigit))
                .map(Long::parseLong).collect(Collectors.toSet());
        Set<String> reloaded = rows.stream().filter(r -> r.get(LEASE_EVENT.RESOURCE).equals(RefreshedLeases.RESOURCE))
                .map(r -> r.get(LEASE_EVENT.ROW_KEY)).collect(Collectors.toSet());
        return new Changes(ids, reloaded, latest);
    }

    public long latestEventId() {
        Long id = dsl.select(DSL.max(LEASE_EVENT.ID)).from(LEASE_EVENT).fetchOne(0, Long.class);
        return id == null ? 0 : id;
    }

    /** Ends the article's lease now; the editor is told who did it and why. */
    public Optional<Lease> forceRelease(long articleId, String supervisor, String reason) {
        if (reason == null || reason.isBlank()) {
            throw new IllegalArgumentException(Phrase.of("review.supervision.giveReason").text());
        }
        return procedures.forceRelease(actingFor(supervisor), articleId, reason.strip());
    }

    /** Thrown when a reassignment would put an editor over capacity and the supervisor did not override. */
    public static final class OverCapacityException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        OverCapacityException(String message) {
            super(message);
        }
    }

    /**
     * How a supervisor gives an article: {@code overrideCapacity} once they agreed to put the editor
     * over capacity, {@code outsideDesk} once they agreed to give an article of a desk the editor
     * does not work on (that lease only, not the desk), and the reason the new holder sees.
     */
    public record Give(boolean overrideCapacity, boolean outsideDesk, String reason) {
    }

    /** Thrown when the editor does not work on the article's desk and the supervisor did not agree to give it anyway. */
    public static final class OutsideDeskException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        OutsideDeskException(String message) {
            super(message);
        }
    }

    /** As {@link #reassign(long, String, String, Give)}, to editors of the article's desk only. */
    public Lease reassign(long articleId, String toEditor, String supervisor, boolean overrideCapacity, String reason) {
        return reassign(articleId, toEditor, supervisor, new Give(overrideCapacity, false, reason));
    }

    /**
     * Gives the article to {@code toEditor} under a new lease of the desk's length: one an editor
     * holds (a reassignment), or one that waits in the queue, held by a supervisor or not. Refused
     * if it would put them over capacity unless {@code how.overrideCapacity()}, and if its desk is
     * not one of theirs unless {@code how.outsideDesk()}. The database keeps it from the editor who
     * lost it and hands their notes to the new holder.
     */
    public Lease reassign(long articleId, String toEditor, String supervisor, Give how) {
        Editor editor = newsroom.requireEditor(toEditor);
        Record article = dsl.select(ARTICLE.DESK_ID, ARTICLE.STATUS, ARTICLE.LOCKED_BY, ARTICLE.EXPIRES_AT).from(ARTICLE)
                .where(ARTICLE.ID.eq(articleId)).fetchOne();
        if (article == null || article.get(ARTICLE.STATUS) != ArticleStatus.queued) {
            throw new IllegalArgumentException(Phrase.of("review.supervision.notWaiting", articleId).text());
        }
        String deskId = article.get(ARTICLE.DESK_ID);
        if (!editor.desks().contains(deskId) && !how.outsideDesk()) {
            throw new OutsideDeskException(Phrase.of("review.supervision.notOnDesk", editor.displayName(), deskId).text());
        }
        int held = dsl.fetchCount(ARTICLE, ARTICLE.LOCKED_BY.eq(toEditor).and(ARTICLE.EXPIRES_AT.gt(ServerClock.now()))
                .and(ARTICLE.ID.ne(articleId)));
        if (held >= editor.capacity() && !how.overrideCapacity()) {
            throw new OverCapacityException(Phrase.of("review.supervision.overCapacity", editor.displayName(), held,
                    editor.capacity()).text());
        }
        String reason = how.reason();
        return procedures.reassign(actingFor(supervisor), articleId, toEditor, how.overrideCapacity(), how.outsideDesk(),
                reason == null || reason.isBlank() ? null : reason.strip());
    }

    /** Gives the holder more time, at most the desk's maximum hold after the claim. */
    public Optional<Lease> extend(long articleId, Duration by, String supervisor) {
        if (!dsl.fetchExists(ARTICLE, ARTICLE.ID.eq(articleId))) {
            throw new IllegalArgumentException(Phrase.of("review.supervision.noArticle", articleId).text());
        }
        return procedures.extend(actingFor(supervisor), articleId, by.toSeconds());
    }

    /** Per desk: waiting now, scheduled, in review, sent back, quarantined, finished today, oldest waiting. */
    public List<DeskHealth> queueHealth() {
        Field<LocalDateTime> now = ServerClock.now();
        Condition queued = ARTICLE.STATUS.eq(ArticleStatus.queued);
        Condition held = ARTICLE.LOCKED_BY.isNotNull().and(ARTICLE.EXPIRES_AT.gt(now));
        Condition available = ARTICLE.AVAILABLE_AT.le(now);
        Field<Integer> waiting = DSL.count().filterWhere(queued.and(available).and(held.not()));
        Field<Integer> scheduled = DSL.count().filterWhere(queued.and(ARTICLE.AVAILABLE_AT.gt(now)));
        Field<Integer> inReview = DSL.count().filterWhere(queued.and(held));
        // sent back and not in review again: waiting out the desk's delay, or with the writer for a revision
        Field<Integer> sentBack = DSL.count().filterWhere(queued.and(ARTICLE.ATTEMPTS.gt(0)).and(held.not())
                .or(ARTICLE.STATUS.eq(ArticleStatus.awaiting_writer)));
        Field<Integer> quarantined = DSL.count().filterWhere(ARTICLE.STATUS.eq(ArticleStatus.quarantined));
        Field<LocalDateTime> oldest = DSL.min(ARTICLE.AVAILABLE_AT).filterWhere(queued.and(available).and(held.not()));
        Field<Integer> finished = DSL.field(DSL.selectCount().from(DECISION).join(ARTICLE.as("d_article"))
                .on(ARTICLE.as("d_article").ID.eq(DECISION.ARTICLE_ID))
                .where(ARTICLE.as("d_article").DESK_ID.eq(DESK.ID))
                .and(DECISION.VERDICT.in(DecisionVerdict.approve, DecisionVerdict.reject))
                .and(DECISION.DECIDED_AT.ge(ServerClock.startOfToday())));
        return dsl.select(DESK.ID, DESK.NAME, waiting, scheduled, inReview, sentBack, quarantined, finished, oldest)
                .from(DESK)
                .leftJoin(ARTICLE).on(ARTICLE.DESK_ID.eq(DESK.ID))
                .groupBy(DESK.ID, DESK.NAME)
                .orderBy(DESK.NAME)
                .fetch(r -> new DeskHealth(r.get(DESK.ID), r.get(DESK.NAME), r.get(waiting), r.get(scheduled),
                        r.get(inReview), r.get(sentBack), r.get(quarantined), r.get(finished), r.get(oldest)));
    }
}
