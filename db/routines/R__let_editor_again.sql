DROP PROCEDURE IF EXISTS let_editor_again;

DELIMITER $$

-- A supervisor lets the editor an article was kept from (a force release or a reassignment away
-- keeps it from its holder) claim it again. Refused when it is kept from nobody. History:
-- 'let_again', with the editor in old_owner and the reason (optional).
CREATE PROCEDURE let_editor_again(IN p_as VARCHAR(64), IN p_article BIGINT, IN p_reason VARCHAR(2000))
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_actor VARCHAR(64);
    DECLARE v_now DATETIME(6);
    DECLARE v_kept VARCHAR(64);
    DECLARE CONTINUE HANDLER FOR NOT FOUND BEGIN END;
    DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN CALL operation_fails(); RESIGNAL; END;
    CALL operation_begins();
    CALL resolve_actor(p_as, 'supervisor', v_actor);
    START TRANSACTION;
    SET v_now = server_utc_now();
    SELECT kept_from INTO v_kept FROM article WHERE id = p_article FOR UPDATE;
    IF v_kept IS NULL THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: this article is kept from nobody';
    END IF;
    UPDATE article SET kept_from = NULL, updated_at = v_now WHERE id = p_article;
    CALL log_event(p_article, 'let_again', v_actor, v_kept, NULL, NULL, NULL, NULL, NULLIF(TRIM(p_reason), ''), v_now);
    COMMIT;
    SELECT p_article AS article_id, v_kept AS editor, v_now AS server_now;
END$$

DELIMITER ;
