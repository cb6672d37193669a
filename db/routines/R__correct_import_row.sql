DROP PROCEDURE IF EXISTS correct_import_row;

DELIMITER $$

-- Turns a row an import kept aside, corrected by a supervisor, into an article.
-- p_if_present: 'refuse' (an error) or 'resolve' (the row is dealt with, no new article) when an
-- article with that external id exists already. p_due: when the article is due ('YYYY-MM-DD
-- HH:MM:SS.fff' UTC; NULL: the desk's default after it becomes available, if the desk has one), as
-- import_articles takes it. Result: outcome (imported, present), article_id.
CREATE PROCEDURE correct_import_row(IN p_as VARCHAR(64), IN p_row BIGINT, IN p_external_id VARCHAR(128), IN p_desk VARCHAR(32),
                                    IN p_title VARCHAR(300), IN p_byline VARCHAR(200), IN p_body LONGTEXT,
                                    IN p_priority INT, IN p_available_at VARCHAR(40), IN p_if_present VARCHAR(8),
                                    IN p_due VARCHAR(40))
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_no_such_desk INT;
    DECLARE v_taken_id INT;
    DECLARE v_actor VARCHAR(64);
    DECLARE v_now DATETIME(6);
    DECLARE v_found BIGINT DEFAULT NULL;
    DECLARE v_import VARCHAR(64);
    DECLARE v_source VARCHAR(500);
    DECLARE v_line BIGINT;
    DECLARE v_external VARCHAR(128);
    DECLARE v_id BIGINT;
    DECLARE v_due DATETIME(3);
    DECLARE CONTINUE HANDLER FOR NOT FOUND BEGIN END;
    DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN CALL operation_fails(); RESIGNAL; END;
    CALL operation_begins();
    CALL resolve_actor(p_as, 'supervisor', v_actor);
    START TRANSACTION;
    SET v_now = server_utc_now();
    -- locked, so two supervisors correcting the same row do not both make an article
    SELECT id, import_id, source_name, line_number INTO v_found, v_import, v_source, v_line
      FROM import_quarantine WHERE id = p_row AND resolved_at IS NULL FOR UPDATE;
    IF v_found IS NULL THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: this import row is not waiting for correction any more';
    END IF;
    SELECT NOT EXISTS (SELECT 1 FROM desk WHERE id = p_desk) INTO v_no_such_desk;
    IF v_no_such_desk THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: there is no desk of that name';
    END IF;
    SET v_external = COALESCE(NULLIF(TRIM(p_external_id), ''), CONCAT('import-', v_import, '-', v_line));
    SELECT EXISTS (SELECT 1 FROM article WHERE external_id = v_external) INTO v_taken_id;
    IF v_taken_id THEN
        IF COALESCE(p_if_present, 'refuse') <> 'resolve' THEN
            SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: an article with that external id exists already';
        END IF;
        UPDATE import_quarantine SET resolved_at = v_now WHERE id = p_row;
        COMMIT;
        SELECT 'present' AS outcome, NULL AS article_id;
    ELSE
        SET v_due = CAST(p_due AS DATETIME(3));
        IF v_due IS NULL THEN
            SELECT TIMESTAMPADD(SECOND, due_after_seconds, COALESCE(CAST(p_available_at AS DATETIME(6)), v_now)) INTO v_due
              FROM desk WHERE id = p_desk;
        END IF;
        INSERT INTO article (external_id, desk_id, title, byline, body, priority, available_at, created_at, updated_at,
                             due_at, due_order, due_watch_at)
        VALUES (v_external, p_desk, TRIM(p_title), p_byline, p_body, COALESCE(p_priority, 3),
                COALESCE(CAST(p_available_at AS DATETIME(6)), v_now), v_now, v_now,
                v_due, claim_due_order(v_due), v_due);
        SET v_id = LAST_INSERT_ID();
        UPDATE import_quarantine SET resolved_at = v_now WHERE id = p_row;
        CALL log_event(v_id, 'import', v_actor, NULL, NULL, NULL, NULL, NULL,
                       CONCAT('corrected from ', v_source, ' line ', v_line, ' (import ', v_import,
                              '; requeued from import quarantine entry #', p_row, ')'), v_now);
        COMMIT;
        SELECT 'imported' AS outcome, v_id AS article_id;
    END IF;
END$$

DELIMITER ;
