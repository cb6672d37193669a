package org.copydesk.review;

import static org.copydesk.db.schema.Tables.REVIEW_DRAFT;

import java.time.LocalDateTime;
import java.util.Optional;
import org.copydesk.lease.ServerClock;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.Table;
import org.jooq.impl.DSL;

/**
 * The editor's notes as they type, one draft per article and editor. Drafts do not need a lease:
 * they must survive a lost lease, a crash, or the editor opening the article again days later.
 */
public final class Drafts {

    /** A saved draft. {@code verdict} may be null (not chosen yet). */
    public record Draft(long articleId, String editorId, Verdict verdict, String notes, LocalDateTime savedAt) {
    }

    /**
     * The view through which people read their own drafts: editors have no right to read the
     * draft table's notes (see V2__security.sql); the view shows the signed-in account's rows only.
     */
    private static final Table<Record> OWN_DRAFT = DSL.table(DSL.name("own_review_draft"));
    // unqualified, so the same handles read the table and the view
    private static final Field<Long> ARTICLE_ID = DSL.field(DSL.name("article_id"), Long.class);
    private static final Field<String> EDITOR_ID = DSL.field(DSL.name("editor_id"), String.class);
    private static final Field<String> VERDICT = DSL.field(DSL.name("verdict"), String.class);
    private static final Field<String> NOTES = DSL.field(DSL.name("notes"), String.class);
    private static final Field<LocalDateTime> SAVED_AT = DSL.field(DSL.name("saved_at"), LocalDateTime.class);

    private final DSLContext dsl;
    private final String sessionUser;

    /** @param sessionUser the account this connection signed in as */
    public Drafts(DSLContext dsl, String sessionUser) {
        this.dsl = dsl;
        this.sessionUser = sessionUser;
    }

    /**
     * Saves (or replaces) the draft. An update first, then an insert: an upsert would need the right
     * to read the notes column, which editors do not have (they read their own drafts through the
     * own_review_draft view). A concurrent first save of the same draft is resolved by updating again.
     */
    public void save(long articleId, String editorId, Verdict verdict, String notes) {
        String text = notes == null ? "" : notes;
        String code = verdict == null ? null : verdict.code();
        int updated = update(articleId, editorId, code, text);
        if (updated == 0) {
            try {
                dsl.insertInto(REVIEW_DRAFT, REVIEW_DRAFT.ARTICLE_ID, REVIEW_DRAFT.EDITOR_ID, REVIEW_DRAFT.VERDICT, REVIEW_DRAFT.NOTES,
                                REVIEW_DRAFT.SAVED_AT)
                        .values(DSL.val(articleId), DSL.val(editorId), DSL.val(code), DSL.val(text), ServerClock.now())
                        .execute();
            } catch (org.jooq.exception.IntegrityConstraintViolationException e) {
                update(articleId, editorId, code, text);
            }
        }
    }

    private int update(long articleId, String editorId, String code, String text) {
        return dsl.update(REVIEW_DRAFT)
                .set(REVIEW_DRAFT.VERDICT, code)
                .set(REVIEW_DRAFT.NOTES, text)
                .set(REVIEW_DRAFT.SAVED_AT, ServerClock.now())
                .where(REVIEW_DRAFT.ARTICLE_ID.eq(articleId)).and(REVIEW_DRAFT.EDITOR_ID.eq(editorId))
                .execute();
    }

    /** The editor's draft: one's own through the view, anyone's (supervisors, admins) from the table. */
    public Optional<Draft> load(long articleId, String editorId) {
        Table<?> source = editorId.equals(sessionUser) ? OWN_DRAFT : REVIEW_DRAFT;
        return dsl.select(VERDICT, NOTES, SAVED_AT).from(source)
                .where(ARTICLE_ID.eq(articleId)).and(EDITOR_ID.eq(editorId))
                .fetchOptional(r -> new Draft(articleId, editorId, r.value1() == null ? null : Verdict.fromCode(r.value1()),
                        r.value2(), r.value3()));
    }

    static void delete(DSLContext tx, long articleId, String editorId) {
        tx.deleteFrom(REVIEW_DRAFT).where(REVIEW_DRAFT.ARTICLE_ID.eq(articleId)).and(REVIEW_DRAFT.EDITOR_ID.eq(editorId)).execute();
    }
}
