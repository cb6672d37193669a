DROP PROCEDURE IF EXISTS save_draft;

DELIMITER $$

-- Saves (or replaces) the signed-in person's draft of their notes; no lease needed, so notes survive
-- a lost lease or a crash.
CREATE PROCEDURE save_draft(IN p_as VARCHAR(64), IN p_article BIGINT, IN p_verdict VARCHAR(16), IN p_notes TEXT)
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_no_article INT;
    DECLARE v_actor VARCHAR(64);
    CALL operation_begins();
    CALL resolve_actor(p_as, 'editor', v_actor);
    -- what people and other systems type is stored as plain text (plain_text)
    SET p_notes = plain_text(p_notes, 60000, 1);
    IF p_verdict IS NOT NULL AND p_verdict NOT IN ('approve', 'reject', 'send_back', 'unreviewable') THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: a draft verdict is approve, reject, send_back or unreviewable';
    END IF;
    IF CHAR_LENGTH(p_notes) > 60000 THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: the notes are longer than 60,000 characters';
    END IF;
    SELECT NOT EXISTS (SELECT 1 FROM article WHERE id = p_article) INTO v_no_article;
    IF v_no_article THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: there is no such article';
    END IF;
    INSERT INTO review_draft (article_id, editor_id, verdict, notes, saved_at)
    VALUES (p_article, v_actor, p_verdict, COALESCE(p_notes, ''), server_utc_now())
    ON DUPLICATE KEY UPDATE verdict = VALUES(verdict), notes = VALUES(notes), saved_at = VALUES(saved_at);
END$$

DELIMITER ;
