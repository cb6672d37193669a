-- Issue 13, "Revisions come in": articles have revisions.
--
-- article_revision keeps every text an article has had (never overwritten; revision 1 is the
-- imported original). article.revision is the one editors see now. held_revision is the revision
-- the lease holder was handed: it is set whenever a new lease is taken (the fencing token changes,
-- trigger below), so every path that grants a lease (claim, reassign, take-over) records it without
-- re-creating those procedures. A decision is made against held_revision; when a newer revision has
-- arrived meanwhile decide_article refuses it and keeps the notes as a draft, and the editor takes
-- the new text with take_revision (fenced like every write under a lease).
--
-- import_articles (V4) is re-created: an existing external id with a different title, body or
-- byline becomes a new revision, with one result row per input row saying what happened
-- (imported, present, revised, revised_held, decided, reopened). p_reopen = 1 reopens decided
-- (approved, rejected, quarantined) articles: the revision goes back to the queue, returning work
-- first, and the outcome feed says 'reopened'.
-- decide_article (V5's) is re-created with the revision check and the decision's revision.
--
-- "Send back" means changes requested: on a desk whose send_back_waits_for_writer is 1 (the
-- default) a sent-back article waits for its writer's revision in the status 'awaiting_writer'
-- (not claimable, no timer; decided_at says since when), and the import of a new revision returns
-- it to the queue at once, ahead of fresh work ('returned'). A desk set to 0 keeps the V4 timer
-- (the article returns after the growing back-off), for desks whose writers send no revisions in.
-- The send-back limit (max_send_backs, then quarantine) and 'unreviewable' (quarantine) stay.

ALTER TABLE article ADD COLUMN revision INT NOT NULL DEFAULT 1;
ALTER TABLE article ADD COLUMN held_revision INT NULL;
ALTER TABLE decision ADD COLUMN revision INT NULL;
ALTER TABLE article MODIFY COLUMN status ENUM('queued', 'approved', 'rejected', 'quarantined', 'awaiting_writer') NOT NULL;
ALTER TABLE article ALTER COLUMN status SET DEFAULT 'queued';
ALTER TABLE desk ADD COLUMN send_back_waits_for_writer INT NOT NULL DEFAULT 1;
ALTER TABLE desk ADD CONSTRAINT ck_desk_send_back_waits CHECK (send_back_waits_for_writer IN (0, 1));
-- Serves "what waits for writers, per desk, since when".
CREATE INDEX ix_article_waiting ON article (status, desk_id, decided_at);

CREATE TABLE article_revision (
    article_id  BIGINT        NOT NULL,
    revision    INT           NOT NULL,
    title       VARCHAR(300)  NOT NULL,
    byline      VARCHAR(200)  NULL,
    body        MEDIUMTEXT    NOT NULL,
    -- the import it came with (NULL for revision 1 of articles older than this migration)
    import_id   VARCHAR(64)   NULL,
    source_name VARCHAR(500)  NULL,
    arrived_at  DATETIME(6)   NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
    CONSTRAINT pk_article_revision PRIMARY KEY (article_id, revision),
    CONSTRAINT fk_article_revision_article FOREIGN KEY (article_id) REFERENCES article (id) ON DELETE CASCADE
);

INSERT INTO article_revision (article_id, revision, title, byline, body, arrived_at)
SELECT id, 1, title, byline, body, created_at FROM article;

UPDATE article SET held_revision = revision WHERE locked_by IS NOT NULL;

-- [jooq ignore start]

DROP TRIGGER IF EXISTS article_first_revision;
DROP TRIGGER IF EXISTS article_lease_revision;
DROP PROCEDURE IF EXISTS import_articles;
DROP PROCEDURE IF EXISTS decide_article;
DROP PROCEDURE IF EXISTS take_revision;
DROP PROCEDURE IF EXISTS apply_role;

DELIMITER $$

-- Every article starts with revision 1, however it arrived (import, a corrected import row, seeds).
CREATE TRIGGER article_first_revision AFTER INSERT ON article FOR EACH ROW
BEGIN
    INSERT INTO article_revision (article_id, revision, title, byline, body, arrived_at)
    VALUES (NEW.id, NEW.revision, NEW.title, NEW.byline, NEW.body, NEW.created_at);
END$$

-- A new lease (a new fencing token) is handed the revision current at that moment.
CREATE TRIGGER article_lease_revision BEFORE UPDATE ON article FOR EACH ROW
BEGIN
    IF NEW.lease_token <> OLD.lease_token THEN
        SET NEW.held_revision = NEW.revision;
    END IF;
END$$

-- One import batch, all in or all out: the articles (p_rows: a JSON array of objects with line,
-- external_id, desk, title, byline, body, priority, available_at ('YYYY-MM-DD HH:MM:SS.ffffff' UTC,
-- or null for now)) and the batch's refused rows (p_kept_aside: objects with line, raw_text, reason).
-- p_reopen = 1: a new revision of a decided article reopens it.
-- Result: one row per input row: line, external_id, article_id, outcome, revision.
--   imported      a new article (revision 1)
--   present       the same title, body and byline as the current revision: nothing changed
--   revised       a new revision; the article waits in the queue and editors see the new text
--   revised_held  a new revision of an article an editor holds: their decision on the revision they
--                 read will be refused until they take the new one
--   returned      a new revision of an article sent back for changes: back in the queue at once,
--                 ahead of fresh work
--   decided       approved, rejected or quarantined: nothing changed (p_reopen = 0)
--   reopened      a new revision of a decided article, back in the queue (p_reopen = 1)
CREATE PROCEDURE import_articles(IN p_as VARCHAR(64), IN p_import_id VARCHAR(64), IN p_source VARCHAR(500), IN p_rows LONGTEXT,
                                 IN p_kept_aside LONGTEXT, IN p_reopen INT)
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_actor VARCHAR(64);
    DECLARE v_now DATETIME(6);
    DECLARE v_line BIGINT;
    DECLARE v_external VARCHAR(1000);
    DECLARE v_desk VARCHAR(1000);
    DECLARE v_title TEXT;
    DECLARE v_byline TEXT;
    DECLARE v_body LONGTEXT;
    DECLARE v_priority INT;
    DECLARE v_available VARCHAR(64);
    DECLARE v_id BIGINT;
    DECLARE v_status VARCHAR(16);
    DECLARE v_owner VARCHAR(64);
    DECLARE v_expires DATETIME(6);
    DECLARE v_old_title VARCHAR(300);
    DECLARE v_old_byline VARCHAR(200);
    DECLARE v_old_body MEDIUMTEXT;
    DECLARE v_revision INT;
    DECLARE v_outcome VARCHAR(16);
    DECLARE v_out LONGTEXT DEFAULT '[]';
    DECLARE v_done INT DEFAULT 0;
    DECLARE rows_in CURSOR FOR
        SELECT j.line, j.external_id, j.desk, j.title, j.byline, j.body, j.priority, j.available_at
          FROM JSON_TABLE(p_rows, '$[*]' COLUMNS (line BIGINT PATH '$.line', external_id VARCHAR(1000) PATH '$.external_id',
               desk VARCHAR(1000) PATH '$.desk', title TEXT PATH '$.title', byline TEXT PATH '$.byline',
               body LONGTEXT PATH '$.body', priority INT PATH '$.priority', available_at VARCHAR(64) PATH '$.available_at')) j;
    DECLARE CONTINUE HANDLER FOR NOT FOUND SET v_done = 1;
    DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN ROLLBACK; RESIGNAL; END;
    CALL resolve_actor(p_as, 'supervisor', v_actor);
    IF JSON_VALID(COALESCE(p_rows, '[]')) = 0 OR JSON_VALID(COALESCE(p_kept_aside, '[]')) = 0 THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: an import batch is a JSON array of rows';
    END IF;
    SET innodb_lock_wait_timeout = 5;
    ROLLBACK; -- start clean: a deadlock in an earlier call can leave the session's transaction open
    SET TRANSACTION ISOLATION LEVEL READ COMMITTED;
    START TRANSACTION;
    SET v_now = server_utc_now();
    OPEN rows_in;
    each_row: LOOP
        FETCH rows_in INTO v_line, v_external, v_desk, v_title, v_byline, v_body, v_priority, v_available;
        IF v_done = 1 THEN LEAVE each_row; END IF;
        SET v_id = NULL;
        SELECT id, status, locked_by, expires_at, title, byline, body, revision
          INTO v_id, v_status, v_owner, v_expires, v_old_title, v_old_byline, v_old_body, v_revision
          FROM article WHERE external_id = v_external FOR UPDATE;
        SET v_done = 0; -- a missing article is not the end of the rows
        IF v_id IS NULL THEN
            INSERT INTO article (external_id, desk_id, title, byline, body, priority, available_at, created_at, updated_at)
            VALUES (v_external, v_desk, v_title, v_byline, v_body, COALESCE(v_priority, 3),
                    COALESCE(CAST(v_available AS DATETIME(6)), v_now), v_now, v_now);
            SET v_id = LAST_INSERT_ID();
            SET v_revision = 1;
            UPDATE article_revision SET import_id = p_import_id, source_name = p_source
             WHERE article_id = v_id AND revision = 1;
            CALL log_event(v_id, 'import', v_actor, NULL, NULL, NULL, NULL, NULL,
                           CONCAT('import ', p_import_id, ': line ', v_line, ' of ', p_source), v_now);
            SET v_outcome = 'imported';
        ELSEIF BINARY v_old_title = BINARY v_title AND BINARY v_old_body = BINARY v_body
               AND BINARY COALESCE(v_old_byline, '') = BINARY COALESCE(v_byline, '') THEN
            SET v_outcome = 'present';
        ELSEIF v_status IN ('approved', 'rejected', 'quarantined') AND COALESCE(p_reopen, 0) = 0 THEN
            SET v_outcome = 'decided';
        ELSE
            SET v_revision = v_revision + 1;
            INSERT INTO article_revision (article_id, revision, title, byline, body, import_id, source_name, arrived_at)
            VALUES (v_id, v_revision, v_title, v_byline, v_body, p_import_id, p_source, v_now);
            IF v_status <> 'queued' THEN
                -- returned (sent back) or reopened (decided): back in the queue now, ahead of fresh
                -- work; a returned article keeps the notes that asked for the changes
                UPDATE article
                   SET title = v_title, byline = v_byline, body = v_body, revision = v_revision, status = 'queued',
                       available_at = v_now, queue_lane = 0, locked_by = NULL, expires_at = NULL,
                       decided_by = NULL, decided_at = NULL,
                       decision_note = IF(v_status = 'awaiting_writer', decision_note, NULL), updated_at = v_now
                 WHERE id = v_id;
                SET v_outcome = IF(v_status = 'awaiting_writer', 'returned', 'reopened');
            ELSE
                UPDATE article SET title = v_title, byline = v_byline, body = v_body, revision = v_revision, updated_at = v_now
                 WHERE id = v_id;
                SET v_outcome = IF(v_owner IS NOT NULL AND v_expires > v_now, 'revised_held', 'revised');
            END IF;
            CALL log_event(v_id, 'revision', v_actor, NULL, NULL, NULL, NULL, NULL,
                           CONCAT('revision ', v_revision, ' (', v_outcome, ') from import ', p_import_id, ': line ', v_line,
                                  ' of ', p_source), v_now);
            IF v_outcome = 'reopened' THEN
                -- a system told "approved" or "rejected" learns the article is in review again
                CALL record_outcome(UUID(), 'reopened', v_id, v_actor, NULL, CONCAT('revision ', v_revision), NULL, NULL, v_now);
            END IF;
        END IF;
        SET v_out = JSON_ARRAY_APPEND(v_out, '$', JSON_ARRAY(v_line, v_external, v_id, v_outcome, v_revision));
    END LOOP;
    CLOSE rows_in;
    INSERT INTO import_quarantine (import_id, source_name, line_number, raw_text, reason, created_at)
    SELECT p_import_id, p_source, q.line, q.raw_text, LEFT(q.reason, 1000), v_now
      FROM JSON_TABLE(COALESCE(p_kept_aside, '[]'), '$[*]' COLUMNS (line BIGINT PATH '$.line',
           raw_text LONGTEXT PATH '$.raw_text', reason TEXT PATH '$.reason')) q;
    COMMIT;
    SELECT o.line, o.external_id, o.article_id, o.outcome, o.revision
      FROM JSON_TABLE(v_out, '$[*]' COLUMNS (line BIGINT PATH '$[0]', external_id VARCHAR(128) PATH '$[1]',
           article_id BIGINT PATH '$[2]', outcome VARCHAR(16) PATH '$[3]', revision INT PATH '$[4]')) o;
END$$

-- The lease holder takes the newest revision (after a refusal, or on "a newer version arrived").
-- Fenced by owner and token. Result: taken (0: lease lost), revision, title, byline, body.
CREATE PROCEDURE take_revision(IN p_as VARCHAR(64), IN p_article BIGINT, IN p_token BIGINT)
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_actor VARCHAR(64);
    DECLARE v_now DATETIME(6);
    DECLARE v_taken INT;
    DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN ROLLBACK; RESIGNAL; END;
    CALL resolve_actor(p_as, 'editor', v_actor);
    SET innodb_lock_wait_timeout = 5;
    ROLLBACK;
    SET TRANSACTION ISOLATION LEVEL READ COMMITTED;
    START TRANSACTION;
    SET v_now = server_utc_now();
    UPDATE article SET held_revision = revision
     WHERE id = p_article AND locked_by = v_actor AND lease_token = p_token AND status = 'queued' AND expires_at > v_now;
    SET v_taken = ROW_COUNT() > 0 OR EXISTS (SELECT 1 FROM article WHERE id = p_article AND locked_by = v_actor
                                              AND lease_token = p_token AND status = 'queued' AND expires_at > v_now);
    COMMIT;
    SELECT v_taken AS taken, a.revision, a.title, a.byline, a.body FROM article a WHERE a.id = p_article;
END$$

-- decide_article as in V5 (its outcome event kept), plus the revision: a decision is made against
-- the revision the holder was handed; a newer one refuses it ('outdated') and keeps the notes as the
-- holder's draft. The decision row records its revision.
CREATE PROCEDURE decide_article(IN p_as VARCHAR(64), IN p_article BIGINT, IN p_token BIGINT, IN p_request CHAR(36),
                                IN p_verdict VARCHAR(16), IN p_notes TEXT)
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_actor VARCHAR(64);
    DECLARE v_now DATETIME(6);
    DECLARE v_status VARCHAR(16);
    DECLARE v_owner VARCHAR(64);
    DECLARE v_token BIGINT;
    DECLARE v_desk VARCHAR(32);
    DECLARE v_attempts INT;
    DECLARE v_revision INT;
    DECLARE v_held_revision INT;
    DECLARE v_max_send_backs INT;
    DECLARE v_delay BIGINT;
    DECLARE v_waits INT;
    DECLARE v_new_status VARCHAR(16);
    DECLARE v_returns DATETIME(6) DEFAULT NULL;
    DECLARE v_quarantine INT DEFAULT 0;
    DECLARE v_earlier_article BIGINT DEFAULT NULL;
    DECLARE v_earlier_verdict VARCHAR(16);
    DECLARE CONTINUE HANDLER FOR NOT FOUND BEGIN END; -- no such row: the variables stay NULL
    DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN ROLLBACK; RESIGNAL; END;

    CALL resolve_actor(p_as, 'editor', v_actor);
    IF p_verdict IS NULL OR p_verdict NOT IN ('approve', 'reject', 'send_back', 'unreviewable') THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: a decision is approve, reject, send_back or unreviewable';
    END IF;
    IF p_verdict <> 'approve' AND TRIM(COALESCE(p_notes, '')) = '' THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: this decision needs notes that say why';
    END IF;
    IF CHAR_LENGTH(p_notes) > 60000 THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: the notes are longer than 60,000 characters';
    END IF;
    IF p_request IS NULL OR CHAR_LENGTH(p_request) <> 36 THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: a decision needs its request id';
    END IF;
    SET innodb_lock_wait_timeout = 5;
    ROLLBACK; -- start clean: a deadlock in an earlier call can leave the session's transaction open
    SET TRANSACTION ISOLATION LEVEL READ COMMITTED;
    START TRANSACTION;
    SET v_now = server_utc_now();
    SELECT article_id, verdict INTO v_earlier_article, v_earlier_verdict FROM decision WHERE request_id = p_request;
    IF v_earlier_article IS NOT NULL THEN
        COMMIT;
        SELECT 'already' AS outcome, v_earlier_article AS article_id, v_earlier_verdict AS verdict, NULL AS status,
               NULL AS returns_at, 0 AS quarantined;
    ELSE
        SELECT status, locked_by, lease_token, desk_id, attempts, revision, held_revision
          INTO v_status, v_owner, v_token, v_desk, v_attempts, v_revision, v_held_revision
          FROM article WHERE id = p_article FOR UPDATE;
        IF v_desk IS NULL THEN
            COMMIT;
            SELECT 'gone' AS outcome, p_article AS article_id, p_verdict AS verdict, NULL AS status, NULL AS returns_at,
                   0 AS quarantined;
        ELSEIF v_owner IS NULL OR v_owner <> v_actor OR v_token <> p_token OR v_status <> 'queued' THEN
            COMMIT;
            SELECT 'lost' AS outcome, p_article AS article_id, p_verdict AS verdict, NULL AS status, NULL AS returns_at,
                   0 AS quarantined;
        ELSEIF COALESCE(v_held_revision, v_revision) <> v_revision THEN
            -- V9: a newer revision arrived while the editor read; their notes wait as a draft
            INSERT INTO review_draft (article_id, editor_id, verdict, notes, saved_at)
            VALUES (p_article, v_actor, p_verdict, COALESCE(p_notes, ''), v_now)
            ON DUPLICATE KEY UPDATE verdict = VALUES(verdict), notes = VALUES(notes), saved_at = VALUES(saved_at);
            COMMIT;
            SELECT 'outdated' AS outcome, p_article AS article_id, p_verdict AS verdict, NULL AS status, NULL AS returns_at,
                   0 AS quarantined;
        ELSE
            SELECT max_send_backs, send_back_delay_seconds, send_back_waits_for_writer
              INTO v_max_send_backs, v_delay, v_waits FROM desk WHERE id = v_desk;
            CASE p_verdict
                WHEN 'approve' THEN SET v_new_status = 'approved';
                WHEN 'reject' THEN SET v_new_status = 'rejected';
                WHEN 'unreviewable' THEN SET v_new_status = 'quarantined';
                ELSE
                    SET v_attempts = v_attempts + 1;
                    IF v_attempts > v_max_send_backs THEN
                        SET v_new_status = 'quarantined';
                        SET v_quarantine = 1;
                    ELSEIF v_waits = 1 THEN
                        -- V9: changes requested: waits for the writer's revision, no timer
                        SET v_new_status = 'awaiting_writer';
                    ELSE
                        SET v_new_status = 'queued';
                        -- the first delay, doubled for each further send-back, at most two days
                        SET v_returns = TIMESTAMPADD(SECOND,
                                CAST(LEAST(172800, v_delay * POW(2, LEAST(v_attempts - 1, 20))) AS SIGNED), v_now);
                    END IF;
            END CASE;
            UPDATE article
               SET status = v_new_status, attempts = v_attempts, locked_by = NULL, expires_at = NULL,
                   available_at = COALESCE(v_returns, available_at), updated_at = v_now,
                   decided_by = IF(v_new_status = 'queued', NULL, v_actor),
                   decided_at = IF(v_new_status = 'queued', NULL, v_now),
                   decision_note = p_notes
             WHERE id = p_article;
            CALL log_event(p_article, 'complete', v_actor, v_actor, NULL, p_token, NULL, NULL, p_verdict, v_now);
            INSERT INTO decision (request_id, article_id, editor_id, verdict, notes, lease_token, decided_at, revision)
            VALUES (p_request, p_article, v_actor, p_verdict, COALESCE(p_notes, ''), p_token, v_now, v_revision);
            -- V5: the outcome goes out with the decision, in the same transaction
            CALL record_outcome(p_request, CASE p_verdict WHEN 'approve' THEN 'approved' WHEN 'reject' THEN 'rejected'
                                           WHEN 'send_back' THEN 'changes_requested' ELSE 'unreviewable' END,
                                p_article, v_actor, p_verdict, p_notes, p_token, v_returns, v_now);
            CALL log_event(p_article, p_verdict, v_actor, NULL, NULL, NULL, NULL, NULL, p_notes, v_now);
            IF v_quarantine = 1 THEN
                CALL log_event(p_article, 'quarantine', v_actor, NULL, NULL, NULL, NULL, NULL,
                               CONCAT('sent back more than ', v_max_send_backs, ' times'), v_now);
            END IF;
            DELETE FROM review_draft WHERE article_id = p_article AND editor_id = v_actor;
            COMMIT;
            SELECT 'recorded' AS outcome, p_article AS article_id, p_verdict AS verdict, v_new_status AS status,
                   v_returns AS returns_at, v_quarantine AS quarantined;
        END IF;
    END IF;
END$$

-- apply_role as in V5, plus V9's table and operation.
CREATE PROCEDURE apply_role(IN p_name VARCHAR(32), IN p_role VARCHAR(16))
    SQL SECURITY DEFINER MODIFIES SQL DATA
each_role: BEGIN -- V5: a label, so other systems' kinds can leave early
    DECLARE v_account VARCHAR(100) DEFAULT CONCAT(QUOTE(p_name), '@''%''');
    DECLARE v_db VARCHAR(100) DEFAULT CONCAT('`', DATABASE(), '`.');
    DECLARE v_rest VARCHAR(2000);
    DECLARE v_item VARCHAR(100);
    CALL run_account_statement(CONCAT('REVOKE ALL PRIVILEGES, GRANT OPTION FROM ', v_account));
    -- V5: other systems' accounts get their one thing and nothing of the newsroom's
    IF p_role = 'feed_reader' THEN
        CALL run_account_statement(CONCAT('GRANT SELECT ON ', v_db, '`outcome_feed` TO ', v_account));
        LEAVE each_role;
    END IF;
    IF p_role = 'relay' THEN
        SET v_rest = 'relay_acquire,relay_release,relay_next,relay_record_attempt';
        WHILE v_rest <> '' DO
            SET v_item = SUBSTRING_INDEX(v_rest, ',', 1);
            SET v_rest = IF(LOCATE(',', v_rest) > 0, SUBSTRING(v_rest, LOCATE(',', v_rest) + 1), '');
            CALL run_account_statement(CONCAT('GRANT EXECUTE ON PROCEDURE ', v_db, '`', v_item, '` TO ', v_account));
        END WHILE;
        LEAVE each_role;
    END IF;
    SET v_rest = 'article,desk,editor,editor_desk,lease_event,decision,flyway_schema_history,own_review_draft,outcome_event,outcome_feed,relay_lease,article_revision'; -- V5: the outcome feed, the relay's state; V9: revisions
    WHILE v_rest <> '' DO
        SET v_item = SUBSTRING_INDEX(v_rest, ',', 1);
        SET v_rest = IF(LOCATE(',', v_rest) > 0, SUBSTRING(v_rest, LOCATE(',', v_rest) + 1), '');
        CALL run_account_statement(CONCAT('GRANT SELECT ON ', v_db, '`', v_item, '` TO ', v_account));
    END WHILE;
    -- who has a draft where; the notes only through own_review_draft
    CALL run_account_statement(CONCAT('GRANT SELECT (article_id, editor_id) ON ', v_db, '`review_draft` TO ', v_account));
    SET v_rest = 'claim_articles,renew_leases,release_article,decide_article,save_draft,record_presence,release_expired_leases,end_stuck_transactions,take_revision'; -- V9: take_revision
    IF p_role IN ('supervisor', 'admin') THEN
        SET v_rest = CONCAT(v_rest, ',force_release_article,reassign_article,extend_lease,set_editor_capacity,set_editor_desks',
                            ',import_articles,requeue_article,correct_import_row,discard_import_row,relay_retry'); -- V5: relay_retry
    END IF;
    -- admins call the account operations through ALL on the schema (below): granting EXECUTE on a
    -- routine while it runs makes MariaDB reload it mid-call and fail ("Recursive limit 0")
    WHILE v_rest <> '' DO
        SET v_item = SUBSTRING_INDEX(v_rest, ',', 1);
        SET v_rest = IF(LOCATE(',', v_rest) > 0, SUBSTRING(v_rest, LOCATE(',', v_rest) + 1), '');
        CALL run_account_statement(CONCAT('GRANT EXECUTE ON PROCEDURE ', v_db, '`', v_item, '` TO ', v_account));
    END WHILE;
    IF p_role = 'supervisor' THEN
        CALL run_account_statement(CONCAT('GRANT SELECT ON ', v_db, '`review_draft` TO ', v_account));
        CALL run_account_statement(CONCAT('GRANT SELECT ON ', v_db, '`import_quarantine` TO ', v_account));
    END IF;
    IF p_role = 'admin' THEN
        -- the schema (migrations, purge), but no account rights beyond the operations above
        CALL run_account_statement(CONCAT('GRANT ALL PRIVILEGES ON ', v_db, '* TO ', v_account));
    END IF;
END$$

DELIMITER ;

-- Recreating a routine drops its grants: give each account its role's grants again (as V5 and V7 do).
CALL regrant_accounts();

-- [jooq ignore stop]
