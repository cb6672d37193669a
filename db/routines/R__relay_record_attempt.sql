DROP PROCEDURE IF EXISTS relay_record_attempt;

DELIMITER $$

-- What one delivery attempt of an event got: delivered (p_delivered = 1), or not, with the
-- receiver's answer. Not delivered: tried again after p_retry_ms, or marked failed once it has been
-- tried p_max_attempts times. Needs the delivery lease. Result: delivery, attempts.
CREATE PROCEDURE relay_record_attempt(IN p_token BIGINT, IN p_event BIGINT, IN p_delivered INT, IN p_answer VARCHAR(1000),
                                      IN p_retry_ms BIGINT, IN p_max_attempts INT)
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_actor VARCHAR(64);
    DECLARE v_now DATETIME(6);
    DECLARE v_delivery VARCHAR(16) DEFAULT NULL;
    DECLARE v_attempts INT;
    DECLARE v_article BIGINT;
    DECLARE CONTINUE HANDLER FOR NOT FOUND BEGIN END;
    DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN CALL operation_fails(); RESIGNAL; END;
    CALL operation_begins();
    CALL resolve_relay(v_actor);
    -- what people and other systems type is stored as plain text (plain_text)
    SET p_answer = plain_text(p_answer, 1000, 0);
    START TRANSACTION;
    SET v_now = server_utc_now();
    CALL require_relay_lease(p_token, v_now);
    SELECT delivery, attempts, article_id INTO v_delivery, v_attempts, v_article
      FROM outcome_event WHERE id = p_event FOR UPDATE;
    IF v_delivery IS NULL THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: there is no such outcome event';
    END IF;
    IF v_delivery = 'waiting' THEN
        SET v_attempts = v_attempts + 1;
        IF p_delivered = 1 THEN
            SET v_delivery = 'delivered';
        ELSEIF v_attempts >= GREATEST(1, COALESCE(p_max_attempts, 1)) THEN
            SET v_delivery = 'failed';
            CALL log_event(v_article, 'relay_failed', v_actor, NULL, NULL, NULL, NULL, NULL,
                           CONCAT('outcome event ', p_event, ' not delivered after ', v_attempts, ' attempts: ',
                                  COALESCE(p_answer, 'no answer')), v_now);
        END IF;
        UPDATE outcome_event
           SET delivery = v_delivery, attempts = v_attempts, last_attempt_at = v_now, last_answer = LEFT(p_answer, 1000),
               delivered_at = IF(v_delivery = 'delivered', v_now, NULL),
               next_attempt_at = IF(v_delivery = 'waiting',
                                    TIMESTAMPADD(MICROSECOND, GREATEST(0, LEAST(COALESCE(p_retry_ms, 0), 604800000)) * 1000, v_now),
                                    NULL)
         WHERE id = p_event;
    END IF;
    COMMIT;
    SELECT v_delivery AS delivery, v_attempts AS attempts;
END$$

DELIMITER ;
