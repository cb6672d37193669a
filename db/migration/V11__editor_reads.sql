-- Issue 12, "Reads go through views that show each role what it may see": an editor reads what
-- the editor's window shows, no more. And issue 16: what each role may do is data, in one place.
--
-- Until now every person could read the outbox (outcome_event: each outcome with its delivery
-- state and the receiver's last answer), the relay's delivery lease (relay_lease: the holder and its
-- fencing token) and the feed view. None of it is an editor's business: the editor's window never
-- reads them, and the receivers' answers can name internal systems. Supervisors keep them (the
-- dashboard's Relay tab); integration accounts keep their one thing (V5).
--
-- The rights of each role were lists inside apply_role, so every change of a right meant a new copy
-- of the whole procedure (V5, V9) and a second list in Java (AccountAdministration). They are now
-- rows of role_grant, which apply_role reads and the Java check compares with the server's grant
-- tables: the next change of a right is an INSERT or DELETE in a migration.

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
    -- other systems (V5)
    ('feed_reader', 'SELECT', 'outcome_feed', NULL),
    ('relay', 'EXECUTE', 'relay_acquire', NULL),
    ('relay', 'EXECUTE', 'relay_release', NULL),
    ('relay', 'EXECUTE', 'relay_next', NULL),
    ('relay', 'EXECUTE', 'relay_record_attempt', NULL);

-- [jooq ignore start]
DROP PROCEDURE IF EXISTS apply_role;

DELIMITER $$

-- Gives an account exactly the rights of its role, as role_grant lists them (V11; before, lists in
-- V4, V5 and V9's copies of this procedure).
CREATE PROCEDURE apply_role(IN p_name VARCHAR(32), IN p_role VARCHAR(16))
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_account VARCHAR(100) DEFAULT CONCAT(QUOTE(p_name), '@''%''');
    DECLARE v_db VARCHAR(100) DEFAULT CONCAT('`', DATABASE(), '`.');
    DECLARE v_privilege VARCHAR(16);
    DECLARE v_object VARCHAR(64);
    DECLARE v_columns VARCHAR(200);
    DECLARE v_done INT DEFAULT 0;
    DECLARE rights CURSOR FOR
        SELECT privilege, object_name, columns FROM role_grant
         WHERE role = p_role
            OR (role = 'editor' AND p_role IN ('supervisor', 'admin'))
            OR (role = 'supervisor' AND p_role = 'admin')
         ORDER BY privilege, object_name, role;
    DECLARE CONTINUE HANDLER FOR NOT FOUND SET v_done = 1;
    CALL run_account_statement(CONCAT('REVOKE ALL PRIVILEGES, GRANT OPTION FROM ', v_account));
    OPEN rights;
    each_right: LOOP
        FETCH rights INTO v_privilege, v_object, v_columns;
        IF v_done = 1 THEN LEAVE each_right; END IF;
        CALL run_account_statement(CONCAT('GRANT ', v_privilege, COALESCE(CONCAT(' (', v_columns, ')'), ''), ' ON ',
                                          IF(v_privilege = 'EXECUTE', 'PROCEDURE ', ''), v_db, '`', v_object, '` TO ',
                                          v_account));
    END LOOP;
    CLOSE rights;
    IF p_role = 'admin' THEN
        -- the schema (migrations, purge), but no account rights beyond the operations
        CALL run_account_statement(CONCAT('GRANT ALL PRIVILEGES ON ', v_db, '* TO ', v_account));
    END IF;
END$$

DELIMITER ;

CALL regrant_accounts();

-- [jooq ignore stop]
