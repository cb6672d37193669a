package org.copydesk.review;

import static org.copydesk.db.schema.Tables.REVIEW_DRAFT;

import java.time.LocalDateTime;
import java.util.Optional;
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
     * draft table's notes (see db/routines/R__own_review_draft.sql); the view shows the signed-in account's rows only.
     */
    private static final Table<Record> OWN_DRAFT = DSL.table(DSL.name("own_review_draft"));
    // unqualified, so the same handles read the table and the view
    private static final Field<Long> ARTICLE_ID = DSL.field(DSL.name("article_id"), Long.class);
    private static final Field<String> EDITOR_ID = DSL.field(DSL.name("editor_id"), String.class);
    private static final Field<String> VERDICT = DSL.field(DSL.name("verdict"), String.class);
    private static final Field<String> NOTES = DSL.field(DSL.name("notes"), String.class);
    private static final Field<LocalDateTime> SAVED_AT = DSL.field(DSL.name("saved_at"), LocalDateTime.class);

    private final DSLContext dsl;
    private final ReviewProcedures procedures;
    private final String sessionUser;

    /** @param sessionUser the account this connection signed in as */
    Drafts(DSLContext dsl, ReviewProcedures procedures, String sessionUser) {
        this.dsl = dsl;
        this.procedures = procedures;
        this.sessionUser = sessionUser;
    }

    /** Saves (or replaces) the draft, through the database's {@code save_draft}: one's own only. */
    public void save(long articleId, String editorId, Verdict verdict, String notes) {
        procedures.saveDraft(editorId.equals(sessionUser) ? null : editorId, articleId,
                verdict == null ? null : verdict.code(), notes == null ? "" : notes);
    }

    /** The editor's draft: one's own through the view, anyone's (supervisors, admins) from the table. */
    public Optional<Draft> load(long articleId, String editorId) {
        Table<?> source = editorId.equals(sessionUser) ? OWN_DRAFT : REVIEW_DRAFT;
        return dsl.select(VERDICT, NOTES, SAVED_AT).from(source)
                .where(ARTICLE_ID.eq(articleId)).and(EDITOR_ID.eq(editorId))
                .fetchOptional(r -> new Draft(articleId, editorId, r.value1() == null ? null : Verdict.fromCode(r.value1()),
                        r.value2(), r.value3()));
    }
}
