package org.copydesk.review;

import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.DESK;

import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.copydesk.db.schema.enums.ArticleStatus;
import org.copydesk.db.schema.tables.records.ArticleRecord;
import org.copydesk.lease.ClaimRequest;
import org.copydesk.lease.ClaimResult;
import org.copydesk.lease.Lease;
import org.copydesk.lease.LeaseEngine;
import org.copydesk.lease.LeaseLost;
import org.copydesk.lease.Owner;
import org.copydesk.lease.ServerClock;
import org.copydesk.lease.WriteOutcome;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.impl.DSL;

/** An editor's side of the queue: get articles, keep them, give them back, read them. */
public final class ReviewQueue {

    /** An article the editor no longer holds, with the reason in plain words. */
    public record LostArticle(HeldArticle article, LeaseLost lost, String message) {
    }

    /** Result of a heartbeat: the leases renewed, and any found lost. */
    public record Renewal(List<HeldArticle> renewed, List<LostArticle> lost) {
    }

    private final DSLContext dsl;
    private final LeaseEngine engine;
    private final Newsroom newsroom;
    private final String sessionUser;

    /** @param sessionUser the account this connection signed in as */
    public ReviewQueue(DSLContext dsl, LeaseEngine engine, Newsroom newsroom, String sessionUser) {
        this.dsl = dsl;
        this.engine = engine;
        this.newsroom = newsroom;
        this.sessionUser = sessionUser;
    }

    /**
     * The lease owner for an editor: when the editor is the signed-in account, the server's own
     * record of who signed in ({@code CURRENT_USER()}), so the client sends no name at all; an
     * administrator's tools (the command line on the embedded server, tests) name the editor.
     */
    private Owner ownerFor(String editorId) {
        return editorId.equals(sessionUser) ? Owner.session(editorId) : Owner.named(editorId);
    }

    /** Get articles / Reload: refreshes what the editor holds and tops up to their capacity. */
    public Assignment claim(String editorId) {
        return claim(editorId, null);
    }

    /**
     * As {@link #claim(String)}, with leases no longer than {@code shorterLease} (never longer
     * than the desk allows).
     */
    public Assignment claim(String editorId, Duration shorterLease) {
        return claim(editorId, null, shorterLease);
    }

    /**
     * As {@link #claim(String)}, taking new work only from {@code onlyDesks} (the editor's choice for
     * today; null for all their desks). Desks the editor does not work on are ignored.
     */
    public Assignment claim(String editorId, List<String> onlyDesks, Duration shorterLease) {
        Editor editor = newsroom.requireEditor(editorId);
        List<String> desks = onlyDesks == null ? editor.desks()
                : editor.desks().stream().filter(onlyDesks::contains).toList();
        Condition scope = ARTICLE.STATUS.eq(ArticleStatus.queued)
                .and(ARTICLE.AVAILABLE_AT.le(ServerClock.now()))
                .and(ARTICLE.DESK_ID.in(desks));
        ClaimResult result = engine.claim(new ClaimRequest(ownerFor(editorId), scope, ArticleLeases.ORDER,
                editor.capacity(), Duration.ofMinutes(30), leaseSeconds(shorterLease)));
        newsroom.heartbeat(editorId); // getting articles is a sign of life: the dashboard shows them active
        List<HeldArticle> held = describe(result.leases());
        Optional<LocalDateTime> next = held.size() < editor.capacity()
                ? nextAvailableAt(desks) : Optional.empty();
        return new Assignment(held, result.refreshed(), result.claimed(), editor.capacity(), result.serverTime(), next);
    }

    /** What the editor holds now, without claiming or refreshing anything. */
    public List<HeldArticle> held(String editorId) {
        return describe(engine.heldBy(ownerFor(editorId)));
    }

    /** The row's desk's lease length, computed by the server per row; optionally capped shorter. */
    static Field<Integer> leaseSeconds(Duration shorterLease) {
        Field<Integer> desk = DSL.field(DSL.select(DESK.LEASE_SECONDS).from(DESK).where(DESK.ID.eq(ARTICLE.DESK_ID)));
        return shorterLease == null ? desk : DSL.least(desk, DSL.inline((int) Math.max(1, shorterLease.toSeconds())));
    }

    /** When the next article on these desks becomes available (embargo, scheduled review, send-back). */
    public Optional<LocalDateTime> nextAvailableAt(List<String> desks) {
        return Optional.ofNullable(dsl.select(DSL.min(ARTICLE.AVAILABLE_AT)).from(ARTICLE)
                .where(ARTICLE.STATUS.eq(ArticleStatus.queued))
                .and(ARTICLE.DESK_ID.in(desks))
                .and(ARTICLE.AVAILABLE_AT.gt(ServerClock.now()))
                .fetchOne(0, LocalDateTime.class));
    }

    /**
     * Heartbeat: renews each held lease to its desk's length (within the desk's maximum hold).
     * Leases found lost are reported with a message for the editor.
     */
    public Renewal renew(String editorId, List<HeldArticle> held) {
        Map<String, Desk> desks = newsroom.desks().stream().collect(Collectors.toMap(Desk::id, Function.identity()));
        List<HeldArticle> renewed = new ArrayList<>();
        List<LostArticle> lost = new ArrayList<>();
        for (HeldArticle article : held) {
            Desk desk = desks.get(article.desk());
            WriteOutcome outcome = engine.renew(article.lease(), desk.leaseLength(), desk.maxLease());
            if (outcome instanceof WriteOutcome.Applied applied) {
                renewed.add(article.withLease(applied.lease()));
            } else if (outcome instanceof WriteOutcome.Lost l) {
                lost.add(new LostArticle(article, l.lost(), explain(l.lost(), article.title())));
            }
        }
        newsroom.heartbeat(editorId);
        return new Renewal(renewed, lost);
    }

    /** Gives an article back to the queue. Empty when it went fine; else why it was no longer held. */
    public Optional<LostArticle> release(HeldArticle article) {
        WriteOutcome outcome = engine.release(article.lease(), "given back by the editor");
        if (outcome instanceof WriteOutcome.Lost l) {
            return Optional.of(new LostArticle(article, l.lost(), explain(l.lost(), article.title())));
        }
        return Optional.empty();
    }

    public Optional<ArticleDetail> article(long id) {
        return dsl.selectFrom(ARTICLE).where(ARTICLE.ID.eq(id)).fetchOptional(ReviewQueue::detail);
    }

    public String explain(LeaseLost lost, String title) {
        Map<String, String> names = newsroom.editors().stream().collect(Collectors.toMap(Editor::id, Editor::displayName));
        return LeaseLossMessages.explain(lost, title, id -> names.getOrDefault(id, id));
    }

    private List<HeldArticle> describe(List<Lease> leases) {
        if (leases.isEmpty()) {
            return List.of();
        }
        Map<Long, ArticleRecord> rows = dsl.selectFrom(ARTICLE)
                .where(ARTICLE.ID.in(leases.stream().map(l -> (Long) l.key().single()).toList()))
                .fetchMap(ARTICLE.ID);
        List<HeldArticle> held = new ArrayList<>();
        for (Lease lease : leases) {
            ArticleRecord r = rows.get((Long) lease.key().single());
            held.add(new HeldArticle(r.getId(), r.getExternalId(), r.getDeskId(), r.getTitle(), r.getByline(),
                    r.getPriority(), r.getAttempts(), r.getAvailableAt(), lease));
        }
        return held;
    }

    static ArticleDetail detail(ArticleRecord r) {
        return new ArticleDetail(r.getId(), r.getExternalId(), r.getDeskId(), r.getTitle(), r.getByline(), r.getBody(),
                r.getPriority(), r.getStatus().getLiteral(), r.getAttempts(), r.getAvailableAt(), r.getCreatedAt(),
                r.getLockedBy(), r.getExpiresAt());
    }
}
