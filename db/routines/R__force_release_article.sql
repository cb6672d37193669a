DROP PROCEDURE IF EXISTS force_release_article;

DELIMITER $$

-- Ends the article's lease now; the editor is told who did it and why. The article goes back to the
-- queue kept from that editor (kept_from): their claims pass it over until a supervisor lets them
-- have it again (let_editor_again) or someone decides it. The notes that editor wrote go with the
-- article, as on a reassignment (hand_over_notes): whoever holds it next finds them at the head of
-- their draft, under the writer's name. Result: the ended lease, or no row if the article was not held.
CREATE PROCEDURE force_release_article(IN p_as VARCHAR(64), IN p_article BIGINT, IN p_reason VARCHAR(2000))
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_actor VARCHAR(64);
    DECLARE v_now DATETIME(6);
    DECLARE v_found BIGINT DEFAULT NULL;
    DECLARE v_owner VARCHAR(64);
    DECLARE v_token BIGINT;
    DECLARE v_expires DATETIME(6);
    DECLARE CONTINUE HANDLER FOR NOT FOUND BEGIN END;
    DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN CALL operation_fails(); RESIGNAL; END;
    CALL operation_begins();
    CALL resolve_actor(p_as, 'supervisor', v_actor);
    -- what people and other systems type is stored as plain text (plain_text)
    SET p_reason = plain_text(p_reason, 2000, 0);
    IF TRIM(COALESCE(p_reason, '')) = '' THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: give a reason; the editor will see it';
    END IF;
    START TRANSACTION;
    SET v_now = server_utc_now();
    SELECT id, locked_by, lease_token, expires_at INTO v_found, v_owner, v_token, v_expires
      FROM article WHERE id = p_article FOR UPDATE;
    IF v_found IS NULL THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: there is no such article';
    END IF;
    IF v_owner IS NOT NULL THEN
        CALL hand_over_notes(p_article, v_actor, v_owner, NULL, v_now);
        UPDATE article SET locked_by = NULL, expires_at = NULL, kept_from = v_owner WHERE id = p_article;
        CALL log_event(p_article, 'force_release', v_actor, v_owner, NULL, v_token, NULL, NULL, TRIM(p_reason), v_now);
    END IF;
    COMMIT;
    SELECT p_article AS article_id, v_owner AS owner, v_token AS lease_token, v_expires AS expires_at,
           v_now AS server_now
      FROM DUAL WHERE v_owner IS NOT NULL;
END$$

DELIMITER ;
