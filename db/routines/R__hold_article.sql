DROP PROCEDURE IF EXISTS hold_article;

DELIMITER $$

-- A supervisor holds a waiting (or scheduled) article out of every claim until they release the
-- hold (release_hold). A lease that ran out on it ends here, as a claim would end it. Refused for an
-- article an editor holds now (take it back first) or one not waiting. History: 'hold', with the
-- reason.
CREATE PROCEDURE hold_article(IN p_as VARCHAR(64), IN p_article BIGINT, IN p_reason VARCHAR(2000))
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_actor VARCHAR(64);
    DECLARE v_now DATETIME(6);
    DECLARE v_found BIGINT DEFAULT NULL;
    DECLARE v_status VARCHAR(16);
    DECLARE v_owner VARCHAR(64);
    DECLARE v_token BIGINT;
    DECLARE v_expires DATETIME(6);
    DECLARE v_held DATETIME(6);
    DECLARE CONTINUE HANDLER FOR NOT FOUND BEGIN END;
    DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN CALL operation_fails(); RESIGNAL; END;
    CALL operation_begins();
    CALL resolve_actor(p_as, 'supervisor', v_actor);
    IF TRIM(COALESCE(p_reason, '')) = '' THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: give a reason; the history keeps it';
    END IF;
    START TRANSACTION;
    SET v_now = server_utc_now();
    SELECT id, status, locked_by, lease_token, expires_at, held_at INTO v_found, v_status, v_owner, v_token, v_expires, v_held
      FROM article WHERE id = p_article FOR UPDATE;
    IF v_found IS NULL OR v_status <> 'queued' THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: this article is not waiting for review';
    END IF;
    IF v_owner IS NOT NULL AND v_expires > v_now THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: an editor is reviewing this article now; take it back first';
    END IF;
    IF v_held IS NOT NULL THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: this article is on hold already';
    END IF;
    IF v_owner IS NOT NULL THEN
        -- a lease that ran out: ended, so its holder's heartbeat cannot take it up again
        UPDATE article SET locked_by = NULL, expires_at = NULL WHERE id = p_article;
        CALL log_event(p_article, 'expire', v_actor, v_owner, NULL, v_token, NULL, NULL, NULL, v_now);
    END IF;
    UPDATE article SET held_by = v_actor, held_at = v_now, updated_at = v_now WHERE id = p_article;
    CALL log_event(p_article, 'hold', v_actor, NULL, NULL, NULL, NULL, NULL, TRIM(p_reason), v_now);
    COMMIT;
    SELECT p_article AS article_id, v_actor AS held_by, v_now AS held_at, v_now AS server_now;
END$$

DELIMITER ;
