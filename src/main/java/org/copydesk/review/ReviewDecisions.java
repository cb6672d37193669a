package org.copydesk.review;

import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.DECISION;
import static org.copydesk.db.schema.Tables.DESK;

import java.time.Duration;
import java.time.LocalDateTime;
import java.util.LinkedHashMap;
import java.util.Map;
import org.copydesk.db.schema.enums.ArticleStatus;
import org.copydesk.db.schema.tables.records.ArticleRecord;
import org.copydesk.db.schema.tables.records.DecisionRecord;
import org.copydesk.db.schema.tables.records.DeskRecord;
import org.copydesk.lease.LeaseEngine;
import org.copydesk.lease.ServerClock;
import org.copydesk.lease.WriteOutcome;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.impl.DSL;

/**
 * Applies an editor's decision under the lease, in one transaction: the article's new state and
 * the end of the lease (fenced by owner and token), the decision row (unique per request, so a
 * retry is recognised), the history entry, and the draft's removal. If the lease is gone nothing
 * changes and the draft stays.
 */
public final class ReviewDecisions {

    /** The longest a send-back waits, however often an article comes back. */
    static final Duration MAX_BACK_OFF = Duration.ofDays(2);

    private final LeaseEngine engine;
    private final ReviewQueue queue;

    public ReviewDecisions(LeaseEngine engine, ReviewQueue queue) {
        this.engine = engine;
        this.queue = queue;
    }

    public DecisionOutcome submit(DecisionRequest request) {
        Verdict verdict = request.verdict();
        if (verdict.needsNotes() && request.notes().isBlank()) {
            return new DecisionOutcome.Refused(switch (verdict) {
                case REJECT -> "Say why the article is rejected.";
                case SEND_BACK -> "Write what needs to change before the article comes back.";
                default -> "Say why the article cannot be reviewed.";
            });
        }
        if (request.notes().length() > 60_000) {
            return new DecisionOutcome.Refused("The notes are longer than 60,000 characters; shorten them.");
        }
        return engine.inTransaction("decision", tx -> decide(tx, request));
    }

    private DecisionOutcome decide(DSLContext tx, DecisionRequest request) {
        String editor = request.lease().owner();
        DecisionRecord earlier = tx.selectFrom(DECISION).where(DECISION.REQUEST_ID.eq(request.requestId().toString())).fetchOne();
        if (earlier != null) {
            return new DecisionOutcome.AlreadyRecorded(earlier.getArticleId(), Verdict.fromCode(earlier.getVerdict().getLiteral()));
        }
        ArticleRecord article = tx.selectFrom(ARTICLE).where(ARTICLE.ID.eq(request.articleId())).fetchOne();
        if (article == null) {
            return new DecisionOutcome.Refused("This article no longer exists.");
        }
        DeskRecord desk = tx.selectFrom(DESK).where(DESK.ID.eq(article.getDeskId())).fetchOne();

        Map<Field<?>, Object> changes = new LinkedHashMap<>();
        changes.put(ARTICLE.UPDATED_AT, ServerClock.now());
        changes.put(ARTICLE.DECIDED_BY, editor);
        changes.put(ARTICLE.DECIDED_AT, ServerClock.now());
        changes.put(ARTICLE.DECISION_NOTE, request.notes());
        boolean autoQuarantine = false;
        LocalDateTime returnsAt = null;
        ArticleStatus status;
        switch (request.verdict()) {
            case APPROVE -> status = ArticleStatus.approved;
            case REJECT -> status = ArticleStatus.rejected;
            case UNREVIEWABLE -> status = ArticleStatus.quarantined;
            case SEND_BACK -> {
                int attempts = article.getAttempts() + 1;
                changes.put(ARTICLE.ATTEMPTS, attempts);
                if (attempts > desk.getMaxSendBacks()) {
                    autoQuarantine = true;
                    status = ArticleStatus.quarantined;
                } else {
                    status = ArticleStatus.queued;
                    changes.put(ARTICLE.AVAILABLE_AT, ServerClock.nowPlus(
                            backOff(Duration.ofSeconds(desk.getSendBackDelaySeconds()), attempts)));
                    changes.put(ARTICLE.DECIDED_BY, DSL.castNull(ARTICLE.DECIDED_BY));
                    changes.put(ARTICLE.DECIDED_AT, DSL.castNull(ARTICLE.DECIDED_AT));
                }
            }
            default -> throw new IllegalStateException("unknown verdict " + request.verdict());
        }
        changes.put(ARTICLE.STATUS, status);

        WriteOutcome outcome = engine.completeWithin(tx, request.lease(), changes, request.verdict().code());
        if (outcome instanceof WriteOutcome.Lost lost) {
            return new DecisionOutcome.Lost(lost.lost(), queue.explain(lost.lost(), article.getTitle()));
        }
        tx.insertInto(DECISION, DECISION.REQUEST_ID, DECISION.ARTICLE_ID, DECISION.EDITOR_ID, DECISION.VERDICT,
                        DECISION.NOTES, DECISION.LEASE_TOKEN, DECISION.DECIDED_AT)
                .values(DSL.val(request.requestId().toString()), DSL.val(request.articleId()), DSL.val(editor),
                        DSL.val(request.verdict().toDb()), DSL.val(request.notes()), DSL.val(request.lease().token()),
                        ServerClock.now())
                .execute();
        ArticleHistory.append(tx, request.articleId(), request.verdict().code(), editor, request.notes());
        if (autoQuarantine) {
            ArticleHistory.append(tx, request.articleId(), "quarantine", editor,
                    "sent back more than " + desk.getMaxSendBacks() + " times");
        }
        Drafts.delete(tx, request.articleId(), editor);
        if (status == ArticleStatus.queued) {
            returnsAt = tx.select(ARTICLE.AVAILABLE_AT).from(ARTICLE).where(ARTICLE.ID.eq(request.articleId()))
                    .fetchOne(ARTICLE.AVAILABLE_AT);
        }
        return new DecisionOutcome.Recorded(request.articleId(), request.verdict(), status.getLiteral(), returnsAt,
                autoQuarantine);
    }

    /** The first delay, doubled for each further send-back, at most {@link #MAX_BACK_OFF}. */
    static Duration backOff(Duration first, int attempts) {
        Duration d = first;
        for (int i = 1; i < attempts && d.compareTo(MAX_BACK_OFF) < 0; i++) {
            d = d.multipliedBy(2);
        }
        return d.compareTo(MAX_BACK_OFF) > 0 ? MAX_BACK_OFF : d;
    }
}
