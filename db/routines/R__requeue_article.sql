DROP PROCEDURE IF EXISTS requeue_article;

DELIMITER $$

-- Puts a quarantined article back in the queue, available now, its send-back count reset; a
-- corrected title or body (NULL or blank: unchanged) replaces the old one. Writes a 'requeued'
-- outcome event: a system that was told "unreviewable" learns the article is in review again.
CREATE PROCEDURE requeue_article(IN p_as VARCHAR(64), IN p_article BIGINT, IN p_title VARCHAR(300), IN p_body LONGTEXT, IN p_note VARCHAR(2000))
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_actor VARCHAR(64);
    DECLARE v_now DATETIME(6);
    DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN CALL operation_fails(); RESIGNAL; END;
    CALL operation_begins();
    CALL resolve_actor(p_as, 'supervisor', v_actor);
    -- what people and other systems type is stored as plain text (plain_text)
    SET p_note = plain_text(p_note, 2000, 0);
    START TRANSACTION;
    SET v_now = server_utc_now();
    UPDATE article
       -- at a stage: back in review at the stage that found it unreviewable, in a new pass
       SET status = 'queued', attempts = 0, available_at = v_now, updated_at = v_now, decided_by = NULL,
           pass = pass + IF(stage_id IS NULL, 0, 1),
           decided_at = NULL, decision_note = NULL,
           title = IF(TRIM(COALESCE(p_title, '')) = '', title, TRIM(p_title)),
           body = IF(TRIM(COALESCE(p_body, '')) = '', body, p_body)
     WHERE id = p_article AND status = 'quarantined';
    IF ROW_COUNT() = 0 THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: this article is not in quarantine';
    END IF;
    CALL log_event(p_article, 'requeue', v_actor, NULL, NULL, NULL, NULL, NULL, p_note, v_now);
    -- a system that was told "unreviewable" learns the article is in review again
    CALL record_outcome(UUID(), 'requeued', p_article, v_actor, NULL, p_note, NULL, NULL, v_now);
    COMMIT;
END$$

DELIMITER ;
