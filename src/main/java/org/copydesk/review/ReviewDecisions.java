package org.copydesk.review;

import java.util.Optional;
import org.copydesk.lease.Lease;
import org.copydesk.lease.LeaseLost;

/**
 * Submits an editor's decision. The database applies it under the lease in one transaction
 * ({@code decide_article}): the article's new state and the end of the lease (fenced by owner and
 * token), the decision row (unique per request, so a retry is recognised), the history, and the
 * draft's removal. If the lease is gone nothing changes and the draft stays. The checks here are a
 * courtesy that saves a round trip; the database makes the same ones.
 */
public final class ReviewDecisions {

    /**
     * The words of the {@link DecisionRefusal#NEWER_REVISION} refusal in the display language, for
     * a view that recognises that refusal by its message.
     */
    public static final String NEWER_REVISION = DecisionRefusal.NEWER_REVISION.phrase().text();

    /** Notes longer than this are refused before the call, as the database would refuse them. */
    static final int MAX_NOTES = 60_000;

    private final ReviewProcedures procedures;
    private final ReviewQueue queue;
    private final ArticleLeases leases;

    ReviewDecisions(ReviewProcedures procedures, ReviewQueue queue, ArticleLeases leases) {
        this.procedures = procedures;
        this.queue = queue;
        this.leases = leases;
    }

    public DecisionOutcome submit(DecisionRequest request) {
        Verdict verdict = request.verdict();
        if (verdict.needsNotes() && request.notes().isBlank()) {
            return new DecisionOutcome.Refused(switch (verdict) {
                case REJECT -> DecisionRefusal.REJECT_NEEDS_A_REASON;
                case SEND_BACK -> DecisionRefusal.SEND_BACK_NEEDS_CHANGES;
                default -> DecisionRefusal.UNREVIEWABLE_NEEDS_A_REASON;
            });
        }
        if (request.notes().length() > MAX_NOTES) {
            return new DecisionOutcome.Refused(DecisionRefusal.NOTES_TOO_LONG);
        }
        ReviewProcedures.Decided d;
        try {
            d = procedures.decide(queue.actingFor(request.lease().owner()), request.lease(), request.requestId(),
                    verdict, request.notes(), request.toStage(), request.askStages());
        } catch (OperationRefusedException e) {
            return new DecisionOutcome.Refused(DecisionRefusal.BY_THE_DATABASE, e.getMessage());
        }
        return switch (d.outcome()) {
            case RECORDED -> new DecisionOutcome.Recorded(d.articleId(), verdict, d.status(), d.returnsAt(), d.quarantined(),
                    d.stage());
            case ALREADY -> new DecisionOutcome.AlreadyRecorded(d.articleId(), Verdict.fromCode(d.verdict()));
            case GONE -> new DecisionOutcome.Refused(DecisionRefusal.ARTICLE_GONE);
            case OUTDATED -> new DecisionOutcome.Refused(DecisionRefusal.NEWER_REVISION);
            case LOST -> {
                LeaseLost lost = leases.diagnose(request.lease());
                String title = queue.article(request.articleId()).map(ArticleDetail::title)
                        .orElseGet(() -> Phrase.of("review.decision.thisArticle").text());
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
        return leases.newerRevision(lease);
    }

    /**
     * The editor takes the article's newest revision, after a decision was refused because a newer
     * one arrived: their next decision is recorded against it. Empty when they no longer hold it.
     */
    public Optional<ArticleRevision> takeNewestRevision(Lease lease) {
        return procedures.takeRevision(queue.actingFor(lease.owner()), lease);
    }
}
