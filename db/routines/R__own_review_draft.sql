DROP VIEW IF EXISTS own_review_draft;

-- Each person reads only their own drafts: the rows of review_draft whose editor is the signed-in
-- account (USER(), which the client cannot set). The view runs with its definer's rights, so a
-- role needs no right on the notes of review_draft itself (editors get its two key columns: who
-- has a draft where).
CREATE SQL SECURITY DEFINER VIEW own_review_draft AS
    SELECT article_id, editor_id, verdict, notes, saved_at
    FROM review_draft
    WHERE editor_id = SUBSTRING_INDEX(USER(), '@', 1);
