DROP VIEW IF EXISTS own_review_draft;

-- Each person reads only their own drafts: the rows of review_draft whose editor is the signed-in
-- account (USER(), which the client cannot set). The view runs with its definer's rights, so a
-- role needs no right on the notes of review_draft itself (editors get its two key columns: who
-- has a draft where).
-- The holder of an article also reads the notes a force release handed over (handed_notes) at the
-- head of their draft, until they save it (notes_waiting_for): an article taken back from its
-- editor does not reach the next one empty. Only the holder: nobody else reads another's notes.
CREATE SQL SECURITY DEFINER VIEW own_review_draft AS
    SELECT d.article_id, d.editor_id, d.verdict,
           IF(a.locked_by <=> d.editor_id,
              CONCAT_WS(CONCAT(CHAR(10), CHAR(10)), notes_waiting_for(d.article_id, d.editor_id), NULLIF(TRIM(d.notes), '')),
              d.notes) AS notes,
           d.saved_at
    FROM review_draft d JOIN article a ON a.id = d.article_id
    WHERE d.editor_id = SUBSTRING_INDEX(USER(), '@', 1)
    UNION ALL
    SELECT h.article_id, a.locked_by, NULL, h.notes, h.handed_at
    FROM handed_notes h JOIN article a ON a.id = h.article_id
    WHERE a.locked_by = SUBSTRING_INDEX(USER(), '@', 1) AND h.written_by <> a.locked_by
      AND NOT EXISTS (SELECT 1 FROM review_draft d WHERE d.article_id = h.article_id AND d.editor_id = a.locked_by)
      AND notes_waiting_for(h.article_id, a.locked_by) IS NOT NULL;
