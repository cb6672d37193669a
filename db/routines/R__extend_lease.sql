DROP PROCEDURE IF EXISTS extend_lease;

DELIMITER $$

-- Moves the holder's expiry p_seconds later (from now, if it already passed), at most the desk's
-- maximum hold after the claim. Result: the lease after, or no row if the article is not held.
CREATE PROCEDURE extend_lease(IN p_as VARCHAR(64), IN p_article BIGINT, IN p_seconds INT)
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_actor VARCHAR(64);
    DECLARE v_now DATETIME(6);
    DECLARE v_found BIGINT DEFAULT NULL;
    DECLARE v_desk VARCHAR(32);
    DECLARE v_owner VARCHAR(64);
    DECLARE v_token BIGINT;
    DECLARE v_claimed_at DATETIME(6);
    DECLARE v_expires DATETIME(6);
    DECLARE v_max INT;
    DECLARE CONTINUE HANDLER FOR NOT FOUND BEGIN END;
    DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN CALL operation_fails(); RESIGNAL; END;
    CALL operation_begins();
    CALL resolve_actor(p_as, 'supervisor', v_actor);
    IF p_seconds IS NULL OR p_seconds < 1 OR p_seconds > 86400 THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: give between one second and one day more';
    END IF;
    START TRANSACTION;
    SET v_now = server_utc_now();
    SELECT id, desk_id, locked_by, lease_token, claimed_at, expires_at
      INTO v_found, v_desk, v_owner, v_token, v_claimed_at, v_expires
      FROM article WHERE id = p_article FOR UPDATE;
    IF v_found IS NULL THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: there is no such article';
    END IF;
    IF v_owner IS NOT NULL THEN
        SELECT (SELECT max_lease_seconds FROM desk WHERE id = v_desk) INTO v_max;
        SET v_expires = LEAST(TIMESTAMPADD(SECOND, p_seconds, GREATEST(v_expires, v_now)),
                              TIMESTAMPADD(SECOND, v_max, COALESCE(v_claimed_at, v_now)));
        UPDATE article SET expires_at = v_expires WHERE id = p_article;
        CALL log_event(p_article, 'extend', v_actor, v_owner, v_owner, v_token, v_token, v_expires,
                       CONCAT('extended by ', p_seconds DIV 60, ' min'), v_now);
    END IF;
    COMMIT;
    SELECT p_article AS article_id, v_owner AS owner, v_token AS lease_token, v_expires AS expires_at,
           v_now AS server_now
      FROM DUAL WHERE v_owner IS NOT NULL;
END$$

DELIMITER ;
