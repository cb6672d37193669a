-- What each role may read and call is data: rows of role_grant, which apply_role applies to an
-- account and the app (AccountAdministration) compares with the server's grant tables. A change of
-- a right is an INSERT or DELETE of a row in a migration.
--
-- An editor reads what the editor's window shows, no more: not the outbox (outcome_event: each
-- outcome with its delivery state and the receiver's last answer, which can name internal
-- systems), the relay's delivery lease (relay_lease: the holder and its fencing token) or the feed
-- view. Supervisors read them (the dashboard's Relay tab); integration accounts have their one thing.

-- One right of a role. role is the least role that has it: an editor's rights are a supervisor's
-- and an admin's too, a supervisor's an admin's (admins also get ALL on the schema). feed_reader and
-- relay are other systems' kinds and have only their own rows.
CREATE TABLE role_grant (
    role        VARCHAR(16)  NOT NULL,
    -- SELECT (a table or view) or EXECUTE (a procedure)
    privilege   VARCHAR(16)  NOT NULL,
    object_name VARCHAR(64)  NOT NULL,
    -- for a grant on some columns only, e.g. 'article_id, editor_id'
    columns     VARCHAR(200) NULL,
    PRIMARY KEY (role, privilege, object_name),
    CONSTRAINT role_grant_role CHECK (role IN ('editor', 'supervisor', 'feed_reader', 'relay')),
    CONSTRAINT role_grant_privilege CHECK (privilege IN ('SELECT', 'EXECUTE'))
);

INSERT INTO role_grant (role, privilege, object_name, columns) VALUES
    -- what the editor's window reads
    ('editor', 'SELECT', 'article', NULL),
    ('editor', 'SELECT', 'article_revision', NULL),
    ('editor', 'SELECT', 'desk', NULL),
    ('editor', 'SELECT', 'editor', NULL),
    ('editor', 'SELECT', 'editor_desk', NULL),
    ('editor', 'SELECT', 'lease_event', NULL),
    ('editor', 'SELECT', 'decision', NULL),
    ('editor', 'SELECT', 'flyway_schema_history', NULL),
    ('editor', 'SELECT', 'own_review_draft', NULL),
    -- who has a draft where; the notes only through own_review_draft
    ('editor', 'SELECT', 'review_draft', 'article_id, editor_id'),
    -- an editor's operations
    ('editor', 'EXECUTE', 'claim_articles', NULL),
    ('editor', 'EXECUTE', 'renew_leases', NULL),
    ('editor', 'EXECUTE', 'release_article', NULL),
    ('editor', 'EXECUTE', 'decide_article', NULL),
    ('editor', 'EXECUTE', 'save_draft', NULL),
    ('editor', 'EXECUTE', 'record_presence', NULL),
    ('editor', 'EXECUTE', 'release_expired_leases', NULL),
    ('editor', 'EXECUTE', 'end_stuck_transactions', NULL),
    ('editor', 'EXECUTE', 'take_revision', NULL),
    -- a supervisor reads every draft, the quarantine, and the outbox, feed and relay lease (Relay tab)
    ('supervisor', 'SELECT', 'review_draft', NULL),
    ('supervisor', 'SELECT', 'import_quarantine', NULL),
    ('supervisor', 'SELECT', 'outcome_event', NULL),
    ('supervisor', 'SELECT', 'outcome_feed', NULL),
    ('supervisor', 'SELECT', 'relay_lease', NULL),
    ('supervisor', 'EXECUTE', 'force_release_article', NULL),
    ('supervisor', 'EXECUTE', 'reassign_article', NULL),
    ('supervisor', 'EXECUTE', 'extend_lease', NULL),
    ('supervisor', 'EXECUTE', 'set_editor_capacity', NULL),
    ('supervisor', 'EXECUTE', 'set_editor_desks', NULL),
    ('supervisor', 'EXECUTE', 'import_articles', NULL),
    ('supervisor', 'EXECUTE', 'requeue_article', NULL),
    ('supervisor', 'EXECUTE', 'correct_import_row', NULL),
    ('supervisor', 'EXECUTE', 'discard_import_row', NULL),
    ('supervisor', 'EXECUTE', 'relay_retry', NULL),
    -- other systems
    ('feed_reader', 'SELECT', 'outcome_feed', NULL),
    ('relay', 'EXECUTE', 'relay_acquire', NULL),
    ('relay', 'EXECUTE', 'relay_release', NULL),
    ('relay', 'EXECUTE', 'relay_next', NULL),
    ('relay', 'EXECUTE', 'relay_record_attempt', NULL);
