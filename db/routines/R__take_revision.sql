DROP PROCEDURE IF EXISTS take_revision;

DELIMITER $$

-- The lease holder takes the newest revision (after a refusal, or on "a newer version arrived").
-- Fenced by owner and token. Result: taken (0: lease lost), revision, title, byline, body.
CREATE PROCEDURE take_revision(IN p_as VARCHAR(64), IN p_article BIGINT, IN p_token BIGINT)
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_actor VARCHAR(64);
    DECLARE v_now DATETIME(6);
    DECLARE v_taken INT;
    DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN CALL operation_fails(); RESIGNAL; END;
    CALL operation_begins();
    CALL resolve_actor(p_as, 'editor', v_actor);
    START TRANSACTION;
    SET v_now = server_utc_now();
    UPDATE article SET held_revision = revision
     WHERE id = p_article AND locked_by = v_actor AND lease_token = p_token AND status = 'queued' AND expires_at > v_now;
    SELECT ROW_COUNT() > 0 OR EXISTS (SELECT 1 FROM article WHERE id = p_article AND locked_by = v_actor
                                              AND lease_token = p_token AND status = 'queued' AND expires_at > v_now) INTO v_taken;
    COMMIT;
    SELECT v_taken AS taken, a.revision, a.title, a.byline, a.body FROM article a WHERE a.id = p_article;
END$$

DELIMITER ;
