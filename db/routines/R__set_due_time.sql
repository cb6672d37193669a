DROP PROCEDURE IF EXISTS set_due_time;

DELIMITER $$

-- A supervisor sets, moves or clears (p_due NULL) when an article in review is due, with a reason
-- (in its history, 'due': the old and the new due time, UTC). p_due is a UTC time
-- ('YYYY-MM-DD HH:MM:SS[.fff]'), a DATETIME parameter: no session time zone converts it. A due time
-- already past is taken (the article is late at once, and the sweep tells the feed deadline_missed);
-- whether it is past is the server's clock's call, never the session's. The claim order follows
-- the new due time (a move to the front is undone by it: the article is placed by its due time).
-- Allowed while an editor holds the article: the holder keeps the lease and sees the new time.
-- Result: article_id, due_at (old and new), late (1: the new due time has passed), server_now.
CREATE PROCEDURE set_due_time(IN p_as VARCHAR(64), IN p_article BIGINT, IN p_due DATETIME(3), IN p_reason VARCHAR(2000))
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_actor VARCHAR(64);
    DECLARE v_now DATETIME(6);
    DECLARE v_found BIGINT DEFAULT NULL;
    DECLARE v_status VARCHAR(16);
    DECLARE v_old DATETIME(3);
    DECLARE CONTINUE HANDLER FOR NOT FOUND BEGIN END;
    DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN CALL operation_fails(); RESIGNAL; END;
    CALL operation_begins();
    CALL resolve_actor(p_as, 'supervisor', v_actor);
    SET p_reason = plain_text(p_reason, 1000, 0);
    IF TRIM(COALESCE(p_reason, '')) = '' THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: changing a due time needs a reason';
    END IF;
    IF p_due IS NOT NULL AND (p_due < '2000-01-01' OR p_due >= '9999-01-01') THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: a due time must be between the years 2000 and 9998';
    END IF;
    START TRANSACTION;
    SET v_now = server_utc_now();
    SELECT id, status, due_at INTO v_found, v_status, v_old FROM article WHERE id = p_article FOR UPDATE;
    IF v_found IS NULL OR v_status NOT IN ('queued', 'awaiting_writer', 'quarantined') THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: this article is not in review';
    END IF;
    UPDATE article
       SET due_at = p_due, due_order = claim_due_order(p_due),
           -- a due time told about already is not told again; a new one is watched
           due_watch_at = IF(p_due <=> v_old, due_watch_at, p_due), updated_at = v_now
     WHERE id = p_article;
    -- history: 'due 2026-11-29 18:00:00 UTC → 2026-11-29 18:30:00 UTC: reason' (the exact times are the column's)
    CALL log_event(p_article, 'due', v_actor, NULL, NULL, NULL, NULL, NULL,
                   CONCAT('due ', COALESCE(DATE_FORMAT(v_old, '%Y-%m-%d %H:%i:%s UTC'), 'none'), ' → ',
                          COALESCE(DATE_FORMAT(p_due, '%Y-%m-%d %H:%i:%s UTC'), 'none'), ': ', p_reason), v_now);
    COMMIT;
    SELECT p_article AS article_id, v_old AS old_due_at, p_due AS due_at, p_due <= v_now AS late, v_now AS server_now;
END$$

DELIMITER ;
