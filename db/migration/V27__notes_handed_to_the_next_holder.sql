-- Notes waiting for whoever holds an article next. When a supervisor takes an article back (force
-- release), nobody holds it yet, so the notes its holder wrote cannot go into a person's draft as
-- they do on a reassignment; force_release_article keeps them here, in its own transaction, and the
-- next holder reads them at the head of their draft (own_review_draft) until they save their own.
-- One row per article: a second force release folds the waiting notes into the new ones.
-- No role reads or writes this table (no role_grant row names it); only the owner's routines and
-- the definer view own_review_draft do.
CREATE TABLE handed_notes (
    article_id BIGINT      NOT NULL,
    -- the editor whose notes these are (they head the text, by name)
    written_by VARCHAR(64) NOT NULL,
    -- when they were handed over, server time (UTC): a draft saved after this already holds them
    handed_at  DATETIME(6) NOT NULL,
    notes      TEXT        NOT NULL,
    CONSTRAINT pk_handed_notes PRIMARY KEY (article_id),
    CONSTRAINT fk_handed_notes_article FOREIGN KEY (article_id) REFERENCES article (id) ON DELETE CASCADE
);
