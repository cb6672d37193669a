package org.copydesk.review;

import java.util.Optional;
import org.copydesk.lease.Lease;
import org.copydesk.lease.LeaseEngine;
import org.copydesk.lease.LeaseLost;

/**
 * Submits an editor's decision. The database applies it under the lease in one transaction
 * ({@code decide_article}): the article's new state and the end of the lease (fenced by owner and
 * token), the decision row (unique per request, so a retry is recognised), the history, and the
 * draft's removal. If the lease is gone nothing changes and the draft stays. The checks here are a
 * courtesy that saves a round trip; the database makes the same ones.
 */
public final class ReviewDecisions {

    /** Why a decision on a revision older than the article's newest is refused (the database kept the notes as a draft). */
    public static final String NEWER_REVISION = "A newer version of this article arrived while you were reading;"
            + " your notes are kept as a draft — reload to see it.";

    private final ReviewProcedures procedures;
    private final ReviewQueue queue;
    private final LeaseEngine engine;

    ReviewDecisions(ReviewProcedures procedures, ReviewQueue queue, LeaseEngine engine) {
        this.procedures = procedures;
        this.queue = queue;
        this.engine = engine;
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
        ReviewProcedures.Decided d;
        try {
            d = procedures.decide(queue.actingFor(request.lease().owner()), request.lease(), request.requestId(),
                    verdict, request.notes());
        } catch (OperationRefusedException e) {
            return new DecisionOutcome.Refused(e.getMessage());
        }
        return switch (d.outcome()) {
            case "recorded" -> new DecisionOutcome.Recorded(d.articleId(), verdict, d.status(), d.returnsAt(), d.quarantined());
            case "already" -> new DecisionOutcome.AlreadyRecorded(d.articleId(), Verdict.fromCode(d.verdict()));
            case "gone" -> new DecisionOutcome.Refused("This article no longer exists.");
            case "outdated" -> new DecisionOutcome.Refused(NEWER_REVISION);
            default -> {
                LeaseLost lost = engine.diagnose(request.lease());
                String title = queue.article(request.articleId()).map(ArticleDetail::title).orElse("this article");
                yield new DecisionOutcome.Lost(lost, queue.explain(lost, title));
            }
        };
    }

    /**
     * Whether a newer revision of a held article arrived since the editor was handed it: its number,
     * for telling them in plain words ({@link #NEWER_REVISION}) before they decide. Empty when not
     * (or when the lease is gone, which the heartbeat reports).
     */
    public Optional<Integer> newerRevision(Lease lease) {
        return procedures.newerRevision(lease);
    }

    /**
     * The editor takes the article's newest revision, after a decision was refused because a newer
     * one arrived: their next decision is recorded against it. Empty when they no longer hold it.
     */
    public Optional<ArticleRevision> takeNewestRevision(Lease lease) {
        return procedures.takeRevision(queue.actingFor(lease.owner()), lease);
    }
}
