DROP PROCEDURE IF EXISTS reassign_article;

DELIMITER $$

-- Gives the article to p_to under a new lease of the desk's length, whoever held it. Refused when
-- the article is not waiting for review, its desk is not one of p_to's, or (unless p_override)
-- p_to already holds their capacity. Result: the new lease.
CREATE PROCEDURE reassign_article(IN p_as VARCHAR(64), IN p_article BIGINT, IN p_to VARCHAR(64), IN p_override INT, IN p_reason VARCHAR(2000))
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_actor VARCHAR(64);
    DECLARE v_now DATETIME(6);
    DECLARE v_found BIGINT DEFAULT NULL;
    DECLARE v_status VARCHAR(16);
    DECLARE v_desk VARCHAR(32);
    DECLARE v_owner VARCHAR(64);
    DECLARE v_token BIGINT;
    DECLARE v_lease INT;
    DECLARE v_expires DATETIME(6);
    DECLARE v_capacity INT DEFAULT NULL;
    DECLARE v_held INT;
    DECLARE CONTINUE HANDLER FOR NOT FOUND BEGIN END;
    DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN CALL operation_fails(); RESIGNAL; END;
    CALL operation_begins();
    CALL resolve_actor(p_as, 'supervisor', v_actor);
    -- what people and other systems type is stored as plain text (plain_text)
    SET p_reason = plain_text(p_reason, 2000, 0);
    START TRANSACTION;
    SET v_now = server_utc_now();
    SELECT capacity INTO v_capacity FROM editor WHERE id = p_to FOR UPDATE;
    IF v_capacity IS NULL THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: there is no editor of that name';
    END IF;
    SELECT id, status, desk_id, locked_by, lease_token INTO v_found, v_status, v_desk, v_owner, v_token
      FROM article WHERE id = p_article FOR UPDATE;
    IF v_found IS NULL OR v_status <> 'queued' THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: this article is not waiting for review';
    END IF;
    IF NOT EXISTS (SELECT 1 FROM editor_desk WHERE editor_id = p_to AND desk_id = v_desk) THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: that editor does not work on this article''s desk';
    END IF;
    SET v_held = (SELECT COUNT(*) FROM article WHERE locked_by = p_to AND expires_at > v_now AND id <> p_article);
    IF v_held >= v_capacity AND COALESCE(p_override, 0) = 0 THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: that editor already holds as many articles as their capacity';
    END IF;
    SET v_lease = (SELECT lease_seconds FROM desk WHERE id = v_desk);
    SET v_expires = TIMESTAMPADD(SECOND, v_lease, v_now);
    UPDATE article SET locked_by = p_to, expires_at = v_expires, lease_token = lease_token + 1, queue_lane = 0,
                       claimed_at = v_now, renewals = 0
     WHERE id = p_article;
    CALL log_event(p_article, 'reassign', v_actor, v_owner, p_to, IF(v_owner IS NULL, NULL, v_token), v_token + 1,
                   v_expires, NULLIF(TRIM(p_reason), ''), v_now);
    COMMIT;
    SELECT p_article AS article_id, p_to AS owner, v_token + 1 AS lease_token, v_expires AS expires_at,
           v_now AS server_now, v_held AS held_before;
END$$

DELIMITER ;
