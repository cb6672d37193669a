package org.copydesk.review;

import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.LEASE_EVENT;

import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.copydesk.db.schema.enums.ArticleStatus;
import org.copydesk.db.schema.tables.records.ArticleRecord;
import org.copydesk.lease.Lease;
import org.copydesk.lease.LeaseLost;
import org.copydesk.lease.LostReason;
import org.copydesk.lease.ServerClock;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;

/** An editor's side of the queue: get articles, keep them, give them back, read them. */
public final class ReviewQueue {

    /** An article the editor no longer holds: why, and that reason in words for the editor. */
    public record LostArticle(HeldArticle article, LeaseLost lost, Phrase explanation) {

        /** The explanation in the user's language. */
        public String message() {
            return explanation.text();
        }
    }

    /** Result of a heartbeat: the leases renewed, and any found lost. */
    public record Renewal(List<HeldArticle> renewed, List<LostArticle> lost) {
    }

    private final DSLContext dsl;
    private final ArticleLeases articleLeases;
    private final ReviewProcedures procedures;
    private final Newsroom newsroom;
    private final String sessionUser;

    /** @param sessionUser the account this connection signed in as */
    ReviewQueue(DSLContext dsl, ArticleLeases articleLeases, ReviewProcedures procedures, Newsroom newsroom, String sessionUser) {
        this.dsl = dsl;
        this.articleLeases = articleLeases;
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
        return describe(articleLeases.heldBy(editorId));
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
        LeaseLost lost = articleLeases.diagnose(article.lease());
        if (lost.reason() == LostReason.GONE && article(article.id()).isPresent()) {
            lost = LeaseLost.ranOut(article.lease()); // a GONE diagnosis has no time of its own
        }
        return new LostArticle(article, lost, explain(lost, article.title()));
    }

    /**
     * How the editor came to hold an article they did not claim themselves, in plain words: the
     * supervisor who gave it and their reason (the history's reassignment of this lease), or a
     * plain "is now yours".
     */
    public String arrival(HeldArticle article) {
        var row = dsl.select(LEASE_EVENT.ACTOR, LEASE_EVENT.DETAIL).from(LEASE_EVENT)
                .where(LEASE_EVENT.RESOURCE.eq(ArticleLeases.RESOURCE))
                .and(LEASE_EVENT.ROW_KEY.eq(String.valueOf(article.id())))
                .and(LEASE_EVENT.ACTION.eq(HistoryAction.REASSIGN.code()))
                .and(LEASE_EVENT.LEASE_TOKEN.eq(article.lease().token()))
                .orderBy(LEASE_EVENT.ID.desc()).limit(1).fetchOne();
        if (row == null) {
            return Phrase.of("review.arrival.yours", article.title()).text();
        }
        return Phrase.of("review.arrival.given", article.title(), displayNames().apply(row.value1()),
                LeaseLossPhrases.reason(row.value2())).text();
    }

    private LostArticle lostArticle(HeldArticle article) {
        LeaseLost lost = articleLeases.diagnose(article.lease());
        return new LostArticle(article, lost, explain(lost, article.title()));
    }

    public Optional<ArticleDetail> article(long id) {
        return dsl.selectFrom(ARTICLE).where(ARTICLE.ID.eq(id)).fetchOptional(ReviewQueue::detail);
    }

    /** Several articles in one read (the editor's window reads ahead the texts of what it holds), by id. */
    public Map<Long, ArticleDetail> articles(Collection<Long> ids) {
        if (ids.isEmpty()) {
            return Map.of();
        }
        return dsl.selectFrom(ARTICLE).where(ARTICLE.ID.in(ids)).fetchMap(ARTICLE.ID, ReviewQueue::detail);
    }

    /** Why the editor lost an article, in words for them. */
    Phrase explain(LeaseLost lost, String title) {
        return LeaseLossPhrases.explain(lost, title, displayNames());
    }

    /** Editor id to the name people know (the id itself for someone not in the newsroom). */
    private Function<String, String> displayNames() {
        Map<String, String> names = newsroom.editors().stream().collect(Collectors.toMap(Editor::id, Editor::displayName));
        return id -> names.getOrDefault(id, id);
    }

    private List<HeldArticle> describe(List<Lease> leases) {
        if (leases.isEmpty()) {
            return List.of();
        }
        Map<Long, ArticleRecord> rows = dsl.selectFrom(ARTICLE)
                .where(ARTICLE.ID.in(leases.stream().map(ArticleLeases::articleId).toList()))
                .fetchMap(ARTICLE.ID);
        List<HeldArticle> held = new ArrayList<>();
        for (Lease lease : leases) {
            ArticleRecord r = rows.get(ArticleLeases.articleId(lease));
            held.add(new HeldArticle(r.getId(), r.getExternalId(), r.getDeskId(), r.getTitle(), r.getByline(),
                    r.getPriority(), r.getAttempts(), r.getAvailableAt(), lease, r.getStageId(), DueTimes.instant(r.getDueAt())));
        }
        return held;
    }

    static ArticleDetail detail(ArticleRecord r) {
        return new ArticleDetail(r.getId(), r.getExternalId(), r.getDeskId(), r.getTitle(), r.getByline(), r.getBody(),
                r.getPriority(), r.getStatus().getLiteral(), r.getAttempts(), r.getAvailableAt(), r.getCreatedAt(),
                r.getLockedBy(), r.getExpiresAt());
    }
}
