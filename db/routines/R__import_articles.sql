DROP PROCEDURE IF EXISTS import_articles;

DELIMITER $$

-- One import batch, all in or all out: the articles (p_rows: a JSON array of objects with line,
-- external_id, desk, title, byline, body, priority, available_at ('YYYY-MM-DD HH:MM:SS.ffffff' UTC,
-- or null for now), stage (optional: on a desk with stages, the stage a new article enters at; a
-- stage entered only when asked is asked for, and the article starts at the first stage every article
-- enters, or at the asked one if none comes before it), due (optional: when a new article is due,
-- 'YYYY-MM-DD HH:MM:SS.fff' UTC; without one, the desk's due_after_seconds after it becomes
-- available, if the desk has a default)) and the batch's refused rows (p_kept_aside: objects with
-- line, raw_text, reason). A due time applies to a new article only: a re-import does not move the due
-- time of an article already there (a supervisor's set_due_time does, with a reason). A due time
-- already past is taken; the row's late is 1 and the sweep tells the feed deadline_missed.
-- p_reopen = 1: a new revision of a decided article reopens it.
-- Result: one row per input row: line, external_id, article_id, outcome, revision, late (1: a new
-- article whose due time had passed on the server's clock when it was imported).
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
    DECLARE v_stage VARCHAR(1000);
    DECLARE v_due_text VARCHAR(64);
    DECLARE v_due DATETIME(3);
    DECLARE v_late INT;
    DECLARE v_enter VARCHAR(32);
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
    DECLARE rows_in CURSOR FOR SELECT j.line, j.external_id, j.desk, j.title, j.byline, j.body, j.priority, j.available_at,
                                      j.stage, j.due
          FROM JSON_TABLE(p_rows, '$[*]' COLUMNS (line BIGINT PATH '$.line', external_id VARCHAR(1000) PATH '$.external_id',
               desk VARCHAR(1000) PATH '$.desk', title TEXT PATH '$.title', byline TEXT PATH '$.byline',
               body LONGTEXT PATH '$.body', priority INT PATH '$.priority', available_at VARCHAR(64) PATH '$.available_at',
               stage VARCHAR(1000) PATH '$.stage', due VARCHAR(64) PATH '$.due')) j;
    DECLARE CONTINUE HANDLER FOR NOT FOUND SET v_done = 1;
    DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN CALL operation_fails(); RESIGNAL; END;
    CALL operation_begins();
    CALL resolve_actor(p_as, 'supervisor', v_actor);
    -- what people and other systems type is stored as plain text (plain_text)
    SET p_source = plain_text(p_source, 500, 0);
    SET p_import_id = plain_text(p_import_id, 64, 0);
    IF JSON_VALID(COALESCE(p_rows, '[]')) = 0 OR JSON_VALID(COALESCE(p_kept_aside, '[]')) = 0 THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: an import batch is a JSON array of rows';
    END IF;
    START TRANSACTION;
    SET v_now = server_utc_now();
    OPEN rows_in;
    each_row: LOOP
        FETCH rows_in INTO v_line, v_external, v_desk, v_title, v_byline, v_body, v_priority, v_available, v_stage,
                           v_due_text;
        IF v_done = 1 THEN LEAVE each_row; END IF;
        SET v_id = NULL;
        SET v_late = 0;
        SELECT id, status, locked_by, expires_at, title, byline, body, revision
          INTO v_id, v_status, v_owner, v_expires, v_old_title, v_old_byline, v_old_body, v_revision
          FROM article WHERE external_id = v_external FOR UPDATE;
        SET v_done = 0; -- a missing article is not the end of the rows
        IF v_id IS NULL THEN
            SET v_enter = NULL;
            IF NULLIF(TRIM(v_stage), '') IS NOT NULL THEN
                -- the stage the row names: an article enters there (work done elsewhere: straight to
                -- Sign-off); a stage entered only when asked is asked for instead, and the article
                -- starts at the first stage every article enters, if one comes before it
                SELECT s.stage_id INTO v_enter FROM desk_stage s
                 WHERE s.desk_id = v_desk
                   AND (s.stage_id = TRIM(v_stage)
                        OR (s.entered = 'always' AND s.position < (SELECT n.position FROM desk_stage n WHERE n.desk_id = v_desk
                                                                      AND n.stage_id = TRIM(v_stage) AND n.entered = 'when_asked')))
                 ORDER BY s.position LIMIT 1;
                SET v_done = 0;
                IF v_enter IS NULL THEN
                    -- a refused value (SQLSTATE class 22), not a refused call: the importer then writes
                    -- the batch's rows one by one and keeps this one aside with these words
                    SIGNAL SQLSTATE '22023' SET MESSAGE_TEXT = 'Copydesk: an import row names a stage its desk does not have';
                END IF;
            END IF;
            -- the row's due time, else the desk's default after the article becomes available
            SET v_due = CAST(v_due_text AS DATETIME(3));
            IF v_due IS NULL THEN
                SELECT TIMESTAMPADD(SECOND, d.due_after_seconds, COALESCE(CAST(v_available AS DATETIME(6)), v_now))
                  INTO v_due FROM desk d WHERE d.id = v_desk;
                SET v_done = 0;
            END IF;
            SET v_late = COALESCE(v_due <= v_now, 0);
            INSERT INTO article (external_id, desk_id, title, byline, body, priority, available_at, created_at, updated_at,
                                 stage_id, due_at, due_order, due_watch_at)
            VALUES (v_external, v_desk, v_title, v_byline, v_body, COALESCE(v_priority, 3),
                    COALESCE(CAST(v_available AS DATETIME(6)), v_now), v_now, v_now, v_enter,
                    v_due, claim_due_order(v_due), v_due);
            SET v_id = LAST_INSERT_ID();
            IF v_enter IS NOT NULL AND v_enter <> TRIM(v_stage) THEN
                INSERT INTO article_stage_request (article_id, stage_id, asked_by, asked_at)
                VALUES (v_id, TRIM(v_stage), v_actor, v_now);
            END IF;
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
                -- at a stage: a returned article comes back at the stage that sent it back (a new pass
                -- began with the send-back); a reopened one starts the chain again, at its first stage
                UPDATE article
                   SET stage_id = IF(v_status = 'awaiting_writer' OR stage_id IS NULL, stage_id,
                                     (SELECT s.stage_id FROM desk_stage s WHERE s.desk_id = article.desk_id
                                         AND s.entered = 'always' ORDER BY s.position LIMIT 1)),
                       pass = pass + IF(v_status = 'awaiting_writer' OR stage_id IS NULL, 0, 1),
                       four_eyes_barred = IF(v_status = 'awaiting_writer', four_eyes_barred, NULL),
                       title = v_title, byline = v_byline, body = v_body, revision = v_revision, status = 'queued',
                       available_at = v_now, queue_lane = 0, locked_by = NULL, expires_at = NULL,
                       decided_by = NULL, decided_at = NULL,
                       decision_note = IF(v_status = 'awaiting_writer', decision_note, NULL), updated_at = v_now
                 WHERE id = v_id;
                SET v_outcome = IF(v_status = 'awaiting_writer', 'returned', 'reopened');
                IF v_outcome = 'reopened' THEN
                    -- the chain starts again: what earlier reviewers asked for was for the text they read
                    DELETE FROM article_stage_request WHERE article_id = v_id;
                END IF;
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
        SET v_out = JSON_ARRAY_APPEND(v_out, '$', JSON_ARRAY(v_line, v_external, v_id, v_outcome, v_revision, v_late));
    END LOOP;
    CLOSE rows_in;
    INSERT INTO import_quarantine (import_id, source_name, line_number, raw_text, reason, created_at)
    SELECT p_import_id, p_source, q.line, q.raw_text, LEFT(q.reason, 1000), v_now
      FROM JSON_TABLE(COALESCE(p_kept_aside, '[]'), '$[*]' COLUMNS (line BIGINT PATH '$.line',
           raw_text LONGTEXT PATH '$.raw_text', reason TEXT PATH '$.reason')) q;
    COMMIT;
    SELECT o.line, o.external_id, o.article_id, o.outcome, o.revision, o.late
      FROM JSON_TABLE(v_out, '$[*]' COLUMNS (line BIGINT PATH '$[0]', external_id VARCHAR(128) PATH '$[1]',
           article_id BIGINT PATH '$[2]', outcome VARCHAR(16) PATH '$[3]', revision INT PATH '$[4]',
           late INT PATH '$[5]')) o;
END$$

DELIMITER ;
