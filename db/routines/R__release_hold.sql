DROP PROCEDURE IF EXISTS release_hold;

DELIMITER $$

-- A supervisor releases a hold (hold_article): the article goes back to its place in the claim
-- order, which the hold did not change. Refused when it is not on hold. History: 'release_hold',
-- with the reason (optional).
CREATE PROCEDURE release_hold(IN p_as VARCHAR(64), IN p_article BIGINT, IN p_reason VARCHAR(2000))
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_actor VARCHAR(64);
    DECLARE v_now DATETIME(6);
    DECLARE v_held_by VARCHAR(64);
    DECLARE CONTINUE HANDLER FOR NOT FOUND BEGIN END;
    DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN CALL operation_fails(); RESIGNAL; END;
    CALL operation_begins();
    CALL resolve_actor(p_as, 'supervisor', v_actor);
    START TRANSACTION;
    SET v_now = server_utc_now();
    SELECT held_by INTO v_held_by FROM article WHERE id = p_article AND held_at IS NOT NULL FOR UPDATE;
    IF v_held_by IS NULL THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: this article is not on hold';
    END IF;
    UPDATE article SET held_by = NULL, held_at = NULL, updated_at = v_now WHERE id = p_article;
    CALL log_event(p_article, 'release_hold', v_actor, v_held_by, NULL, NULL, NULL, NULL, NULLIF(TRIM(p_reason), ''), v_now);
    COMMIT;
    SELECT p_article AS article_id, v_now AS server_now;
END$$

DELIMITER ;
