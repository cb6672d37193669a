-- What a supervisor's overrides leave on an article (docs/dashboard.md, "The queue and the
-- supervisor's overrides"), read by the claim and shown in the dashboard's Queue:
--   kept_from  the one editor the article is kept from: a force release or a reassignment away sets
--              it to the holder who lost it, so their next claim does not hand it straight back; the
--              supervisor clears it ("Let them have it again"), and so does a decision by anyone;
--   held_by,   a supervisor's hold: no claim takes the article until the hold is released.
--   held_at
ALTER TABLE article ADD COLUMN kept_from VARCHAR(64) NULL;
ALTER TABLE article ADD COLUMN held_by VARCHAR(64) NULL;
ALTER TABLE article ADD COLUMN held_at DATETIME(6) NULL;

-- The supervisor's operations on the queue (db/routines: move_to_front, hold_article,
-- release_hold, let_editor_again); reassign_article, changed, keeps its grant.
INSERT INTO role_grant (role, privilege, object_name, columns) VALUES
    ('supervisor', 'EXECUTE', 'move_to_front', NULL),
    ('supervisor', 'EXECUTE', 'hold_article', NULL),
    ('supervisor', 'EXECUTE', 'release_hold', NULL),
    ('supervisor', 'EXECUTE', 'let_editor_again', NULL);
