package org.copydesk.review;

import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.LEASE_EVENT;

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
import org.copydesk.lease.Lease;
import org.copydesk.lease.LeaseEngine;
import org.copydesk.lease.LeaseLost;
import org.copydesk.lease.LostReason;
import org.copydesk.lease.Owner;
import org.copydesk.lease.ServerClock;
import org.jooq.DSLContext;
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
    private final ReviewProcedures procedures;
    private final Newsroom newsroom;
    private final String sessionUser;

    /** @param sessionUser the account this connection signed in as */
    ReviewQueue(DSLContext dsl, LeaseEngine engine, ReviewProcedures procedures, Newsroom newsroom, String sessionUser) {
        this.dsl = dsl;
        this.engine = engine;
        this.procedures = procedures;
        this.newsroom = newsroom;
        this.sessionUser = sessionUser;
    }

    /**
     * Whom a database call acts for: nobody named when the editor is the signed-in account (the
     * database knows who signed in); an administrator's tools (the command line on the embedded
     * server, tests) name the editor, which the database allows administrators only.
     */
    String actingFor(String editorId) {
        return editorId.equals(sessionUser) ? null : editorId;
    }

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
     * today; null for all their desks). Desks the editor does not work on are ignored. One call to
     * the database, which refreshes, checks and claims in one transaction.
     */
    public Assignment claim(String editorId, List<String> onlyDesks, Duration shorterLease) {
        Integer leaseCap = shorterLease == null ? null : (int) Math.max(1, shorterLease.toSeconds());
        ReviewProcedures.Claimed c = procedures.claim(actingFor(editorId), onlyDesks, null, leaseCap);
        return new Assignment(c.held(), c.refreshed(), c.claimed(), c.capacity(), c.serverNow(),
                Optional.ofNullable(c.nextAvailableAt()));
    }

    /** What the editor holds now, without claiming or refreshing anything. */
    public List<HeldArticle> held(String editorId) {
        return describe(engine.heldBy(ownerFor(editorId)));
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
     * Heartbeat: renews each held lease to its desk's length (within the desk's maximum hold, never
     * shorter than it is). Leases found lost are reported with a message for the editor.
     */
    public Renewal renew(String editorId, List<HeldArticle> held) {
        if (held.isEmpty()) {
            procedures.recordPresence(actingFor(editorId));
            return new Renewal(List.of(), List.of());
        }
        Map<Long, ReviewProcedures.Renewed> outcome = procedures.renew(actingFor(editorId),
                        held.stream().map(HeldArticle::lease).toList())
                .stream().collect(Collectors.toMap(ReviewProcedures.Renewed::articleId, Function.identity(), (a, b) -> a));
        List<HeldArticle> renewed = new ArrayList<>();
        List<LostArticle> lost = new ArrayList<>();
        for (HeldArticle article : held) {
            ReviewProcedures.Renewed r = outcome.get(article.id());
            if (r != null && r.renewed()) {
                renewed.add(article.withLease(r.lease()));
            } else {
                lost.add(lostArticle(article));
            }
        }
        return new Renewal(renewed, lost);
    }

    /** Records that the editor's client shows the editor active (the database's clock). */
    public void recordPresence(String editorId) {
        procedures.recordPresence(actingFor(editorId));
    }

    /** Gives an article back to the queue. Empty when it went fine; else why it was no longer held. */
    public Optional<LostArticle> release(HeldArticle article) {
        boolean released = procedures.release(actingFor(article.lease().owner()), article.lease(), "given back by the editor");
        return released ? Optional.empty() : Optional.of(lostArticle(article));
    }

    /**
     * Why a lease whose countdown reached zero (server time) is no longer the editor's: taken back,
     * reassigned, taken by someone else, or simply run out, which it is also while the release
     * service has not freed it yet.
     */
    public LostArticle lapsed(HeldArticle article) {
        LeaseLost lost = engine.diagnose(article.lease());
        if (lost.reason() == LostReason.GONE && article(article.id()).isPresent()) {
            lost = LeaseLost.ranOut(article.lease()); // a GONE diagnosis has no time of its own
        }
        return new LostArticle(article, lost, explain(lost, article.title()));
    }

    /**
     * How the editor came to hold an article they did not claim themselves, in plain words: the
     * supervisor who gave it and their reason (the 'reassign' event of this lease), or a plain
     * "is now yours".
     */
    public String arrival(HeldArticle article) {
        var row = dsl.select(LEASE_EVENT.ACTOR, LEASE_EVENT.DETAIL).from(LEASE_EVENT)
                .where(LEASE_EVENT.RESOURCE.eq(ArticleLeases.RESOURCE))
                .and(LEASE_EVENT.ROW_KEY.eq(String.valueOf(article.id())))
                .and(LEASE_EVENT.ACTION.eq("reassign"))
                .and(LEASE_EVENT.LEASE_TOKEN.eq(article.lease().token()))
                .orderBy(LEASE_EVENT.ID.desc()).limit(1).fetchOne();
        String t = "\u201c" + article.title() + "\u201d";
        if (row == null) {
            return t + " is now yours.";
        }
        Map<String, String> names = newsroom.editors().stream().collect(Collectors.toMap(Editor::id, Editor::displayName));
        String by = names.getOrDefault(row.value1(), row.value1());
        String reason = row.value2() == null || row.value2().isBlank() ? "" : ": \u201c" + row.value2() + "\u201d";
        return by + " gave you " + t + reason + ".";
    }

    private LostArticle lostArticle(HeldArticle article) {
        LeaseLost lost = engine.diagnose(article.lease());
        return new LostArticle(article, lost, explain(lost, article.title()));
    }

    public Optional<ArticleDetail> article(long id) {
        return dsl.selectFrom(ARTICLE).where(ARTICLE.ID.eq(id)).fetchOptional(ReviewQueue::detail);
    }

    /** Several articles in one read (the editor's window reads ahead the texts of what it holds), by id. */
    public Map<Long, ArticleDetail> articles(java.util.Collection<Long> ids) {
        if (ids.isEmpty()) {
            return Map.of();
        }
        return dsl.selectFrom(ARTICLE).where(ARTICLE.ID.in(ids)).fetchMap(ARTICLE.ID, ReviewQueue::detail);
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
