DROP PROCEDURE IF EXISTS relay_next;

DELIMITER $$

-- The next events to deliver, at most p_batch (1 to 500), in cursor order: waiting, due, and the
-- oldest undelivered event of their article (a later one waits behind an earlier one, failed ones
-- included, so each article's outcomes arrive in order). Needs the delivery lease.
CREATE PROCEDURE relay_next(IN p_token BIGINT, IN p_batch INT)
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_actor VARCHAR(64);
    DECLARE v_now DATETIME(6);
    DECLARE v_batch INT DEFAULT GREATEST(1, LEAST(COALESCE(p_batch, 50), 500));
    DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN CALL operation_fails(); RESIGNAL; END;
    CALL operation_begins();
    CALL resolve_relay(v_actor);
    START TRANSACTION;
    SET v_now = server_utc_now();
    CALL require_relay_lease(p_token, v_now);
    COMMIT;
    SELECT e.id AS cursor_id, e.idempotency_key, e.outcome, e.article_id, e.external_id, e.desk_id, e.editor_id,
           e.verdict, e.notes, e.article_status, e.send_backs, e.returns_at, e.lease_token, e.decided_at, e.attempts,
           e.stage_id, e.to_stage_id, e.due_at
      FROM outcome_event e
     WHERE e.delivery = 'waiting' AND e.next_attempt_at <= v_now
       AND NOT EXISTS (SELECT 1 FROM outcome_event p
                        WHERE p.article_id = e.article_id AND p.id < e.id AND p.delivery <> 'delivered')
     ORDER BY e.id LIMIT v_batch;
END$$

DELIMITER ;
