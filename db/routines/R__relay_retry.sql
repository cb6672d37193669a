DROP PROCEDURE IF EXISTS relay_retry;

DELIMITER $$

-- A supervisor sends failed events again: one (p_event) or every failed one (NULL). They are
-- tried at once, with a fresh count of attempts; the last answer stays until the next one.
-- Result: how many.
CREATE PROCEDURE relay_retry(IN p_as VARCHAR(64), IN p_event BIGINT)
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_actor VARCHAR(64);
    DECLARE v_now DATETIME(6);
    DECLARE v_count INT;
    DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN CALL operation_fails(); RESIGNAL; END;
    CALL operation_begins();
    CALL resolve_actor(p_as, 'supervisor', v_actor);
    START TRANSACTION;
    SET v_now = server_utc_now();
    INSERT INTO lease_event (occurred_at, resource, row_key, action, actor, detail, acted_by)
    SELECT v_now, 'article', CAST(article_id AS CHAR), 'relay_retry', v_actor,
           CONCAT('outcome event ', id, ' (', outcome, ') to be delivered again'), acted_by(v_actor)
      FROM outcome_event WHERE delivery = 'failed' AND (p_event IS NULL OR id = p_event);
    UPDATE outcome_event SET delivery = 'waiting', attempts = 0, next_attempt_at = v_now
     WHERE delivery = 'failed' AND (p_event IS NULL OR id = p_event);
    SET v_count = ROW_COUNT();
    IF v_count = 0 AND p_event IS NOT NULL THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: this outcome event has not failed; only failed ones are sent again';
    END IF;
    COMMIT;
    SELECT v_count AS retried;
END$$

DELIMITER ;
