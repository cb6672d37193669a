DROP PROCEDURE IF EXISTS release_article;

DELIMITER $$

-- The editor gives an article back. The next claims of that editor pass it over for 10 minutes
-- (another editor claiming it ends that).
CREATE PROCEDURE release_article(IN p_as VARCHAR(64), IN p_article BIGINT, IN p_token BIGINT, IN p_detail VARCHAR(2000))
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_actor VARCHAR(64);
    DECLARE v_now DATETIME(6);
    DECLARE v_changed INT;
    DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN CALL operation_fails(); RESIGNAL; END;
    CALL operation_begins();
    CALL resolve_actor(p_as, 'editor', v_actor);
    -- what people and other systems type is stored as plain text (plain_text)
    SET p_detail = plain_text(p_detail, 2000, 0);
    START TRANSACTION;
    SET v_now = server_utc_now();
    UPDATE article SET locked_by = NULL, expires_at = NULL,
                       passed_by = v_actor, passed_until = TIMESTAMPADD(SECOND, 600, v_now)
     WHERE id = p_article AND locked_by = v_actor AND lease_token = p_token;
    SET v_changed = ROW_COUNT();
    IF v_changed = 1 THEN
        CALL log_event(p_article, 'release', v_actor, v_actor, NULL, p_token, NULL, NULL, p_detail, v_now);
    END IF;
    COMMIT;
    SELECT v_changed AS released;
END$$

DELIMITER ;
