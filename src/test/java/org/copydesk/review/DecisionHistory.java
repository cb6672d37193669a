package org.copydesk.review;

import static org.copydesk.db.schema.Tables.ARTICLE;
import static org.copydesk.db.schema.Tables.ARTICLE_REVISION;
import static org.copydesk.db.schema.Tables.DECISION;
import static org.copydesk.db.schema.Tables.DESK_STAGE;
import static org.copydesk.db.schema.Tables.OUTCOME_EVENT;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.UUID;
import org.copydesk.db.schema.enums.ArticleStatus;
import org.copydesk.db.schema.enums.DecisionVerdict;
import org.copydesk.db.schema.enums.DeskStageEntered;
import org.jooq.DSLContext;

/**
 * Decisions at known instants for the report's tests, written as the schema's owner: an article
 * arrives at a known time (with its revision 1), is decided at known times, at a stage or not, and
 * a revision comes back at a known time. Nothing here goes through the operations: the report reads
 * history, and history is what these rows are.
 */
public final class DecisionHistory {

    private final DSLContext dsl;
    private final String desk;

    public DecisionHistory(DSLContext dsl, String desk) {
        this.dsl = dsl;
        this.desk = desk;
    }

    public void stage(String stage, int position) {
        dsl.insertInto(DESK_STAGE, DESK_STAGE.DESK_ID, DESK_STAGE.STAGE_ID, DESK_STAGE.POSITION, DESK_STAGE.NAME, DESK_STAGE.ENTERED)
                .values(desk, stage, position, stage.substring(0, 1).toUpperCase(java.util.Locale.ROOT) + stage.substring(1),
                        DeskStageEntered.always).execute();
    }

    /** An article that arrived at {@code arrived}, due at {@code due} (null: none). */
    public long article(Instant arrived, Instant due) {
        dsl.insertInto(ARTICLE, ARTICLE.EXTERNAL_ID, ARTICLE.DESK_ID, ARTICLE.TITLE, ARTICLE.BODY, ARTICLE.STATUS,
                        ARTICLE.AVAILABLE_AT, ARTICLE.CREATED_AT, ARTICLE.DUE_AT)
                .values(UUID.randomUUID().toString(), desk, "Article", "Body", ArticleStatus.approved, utc(arrived), utc(arrived),
                        due == null ? null : utc(due))
                .execute();
        long id = dsl.select(org.jooq.impl.DSL.max(ARTICLE.ID)).from(ARTICLE).fetchOne(0, Long.class);
        // revision 1 is written by the trigger article_first_revision; it arrived with the article
        dsl.update(ARTICLE_REVISION).set(ARTICLE_REVISION.ARRIVED_AT, utc(arrived)).where(ARTICLE_REVISION.ARTICLE_ID.eq(id))
                .and(ARTICLE_REVISION.REVISION.eq(1)).execute();
        return id;
    }

    /** Revision {@code revision} of the article came in at {@code arrived}. */
    public void revision(long article, int revision, Instant arrived) {
        dsl.insertInto(ARTICLE_REVISION, ARTICLE_REVISION.ARTICLE_ID, ARTICLE_REVISION.REVISION, ARTICLE_REVISION.TITLE,
                ARTICLE_REVISION.BODY, ARTICLE_REVISION.ARRIVED_AT).values(article, revision, "Article", "Body", utc(arrived)).execute();
    }

    /**
     * A decision on revision {@code revision} of the article at {@code stage} (null: a desk without stages)
     * that took the article off the desk (a final decision, or a send-back to its writer).
     */
    public void decided(long article, String stage, int revision, DecisionVerdict verdict, Instant at) {
        decision(article, stage, revision, verdict, at);
    }

    /** An approval of revision 1 at {@code stage}, final there. */
    public void approved(long article, String stage, Instant at) {
        decided(article, stage, 1, DecisionVerdict.approve, at);
    }

    /**
     * An approval of revision 1 at {@code stage} that moved the article on to {@code next}: a stage step,
     * with its outcome event ({@code stage_passed}) as decide_at_stage writes it.
     */
    public void passedOn(long article, String stage, String next, Instant at) {
        String request = decision(article, stage, 1, DecisionVerdict.approve, at);
        dsl.insertInto(OUTCOME_EVENT, OUTCOME_EVENT.IDEMPOTENCY_KEY, OUTCOME_EVENT.OUTCOME, OUTCOME_EVENT.ARTICLE_ID,
                        OUTCOME_EVENT.EXTERNAL_ID, OUTCOME_EVENT.DESK_ID, OUTCOME_EVENT.EDITOR_ID, OUTCOME_EVENT.VERDICT,
                        OUTCOME_EVENT.NOTES, OUTCOME_EVENT.ARTICLE_STATUS, OUTCOME_EVENT.SEND_BACKS, OUTCOME_EVENT.DECIDED_AT,
                        OUTCOME_EVENT.STAGE_ID, OUTCOME_EVENT.TO_STAGE_ID)
                .values(request, "stage_passed", article, "ext-" + article, desk, "ann", "approve", "", "queued", 0, utc(at), stage, next)
                .execute();
    }

    private String decision(long article, String stage, int revision, DecisionVerdict verdict, Instant at) {
        String request = UUID.randomUUID().toString();
        dsl.insertInto(DECISION, DECISION.REQUEST_ID, DECISION.ARTICLE_ID, DECISION.EDITOR_ID, DECISION.VERDICT, DECISION.NOTES,
                DECISION.LEASE_TOKEN, DECISION.DECIDED_AT, DECISION.STAGE_ID, DECISION.REVISION)
                .values(request, article, "ann", verdict, "", 1L, utc(at), stage, revision).execute();
        return request;
    }

    static LocalDateTime utc(Instant at) {
        return LocalDateTime.ofInstant(at, ZoneOffset.UTC);
    }
}
