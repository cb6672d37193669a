-- The desks and stages each person takes work from (docs/workflow.md, "What an editor takes work
-- from"): chosen at sign-in or from the editor's window, kept across sign-ins, and read by the claim.
-- "desk" (every stage of it the person may take, or the desk if it has no stages) and "desk/stage"
-- entries, comma-separated; NULL: everything they may work. On the editor's row, which the claim
-- reads anyway, so the choice costs the claim no row more. Written only by set_work_choice, which
-- refuses an entry the person may not work; the claim checks every entry again on every call.
ALTER TABLE editor ADD COLUMN work_choice VARCHAR(2000) NULL;

INSERT INTO role_grant (role, privilege, object_name, columns) VALUES
    -- an editor chooses the desks and stages they take work from
    ('editor', 'EXECUTE', 'set_work_choice', NULL);
