package org.copydesk.review;

import static org.copydesk.db.schema.Tables.REVIEW_DRAFT;

import java.time.LocalDateTime;
import java.util.Optional;
import org.copydesk.lease.ServerClock;
import org.jooq.DSLContext;

/**
 * The editor's notes as they type, one draft per article and editor. Drafts do not need a lease:
 * they must survive a lost lease, a crash, or the editor opening the article again days later.
 */
public final class Drafts {

    /** A saved draft. {@code verdict} may be null (not chosen yet). */
    public record Draft(long articleId, String editorId, Verdict verdict, String notes, LocalDateTime savedAt) {
    }

    private final DSLContext dsl;

    public Drafts(DSLContext dsl) {
        this.dsl = dsl;
    }

    public void save(long articleId, String editorId, Verdict verdict, String notes) {
        String text = notes == null ? "" : notes;
        String code = verdict == null ? null : verdict.code();
        dsl.insertInto(REVIEW_DRAFT, REVIEW_DRAFT.ARTICLE_ID, REVIEW_DRAFT.EDITOR_ID, REVIEW_DRAFT.VERDICT, REVIEW_DRAFT.NOTES,
                        REVIEW_DRAFT.SAVED_AT)
                .values(org.jooq.impl.DSL.val(articleId), org.jooq.impl.DSL.val(editorId), org.jooq.impl.DSL.val(code),
                        org.jooq.impl.DSL.val(text), ServerClock.now())
                .onDuplicateKeyUpdate()
                .set(REVIEW_DRAFT.VERDICT, code)
                .set(REVIEW_DRAFT.NOTES, text)
                .set(REVIEW_DRAFT.SAVED_AT, ServerClock.now())
                .execute();
    }

    public Optional<Draft> load(long articleId, String editorId) {
        return dsl.selectFrom(REVIEW_DRAFT)
                .where(REVIEW_DRAFT.ARTICLE_ID.eq(articleId)).and(REVIEW_DRAFT.EDITOR_ID.eq(editorId))
                .fetchOptional(r -> new Draft(r.getArticleId(), r.getEditorId(),
                        r.getVerdict() == null ? null : Verdict.fromCode(r.getVerdict()), r.getNotes(), r.getSavedAt()));
    }

    static void delete(DSLContext tx, long articleId, String editorId) {
        tx.deleteFrom(REVIEW_DRAFT).where(REVIEW_DRAFT.ARTICLE_ID.eq(articleId)).and(REVIEW_DRAFT.EDITOR_ID.eq(editorId)).execute();
    }
}
