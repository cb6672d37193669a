DROP PROCEDURE IF EXISTS move_to_stage;

DELIMITER $$

-- A supervisor moves an article in review to another stage of its desk, with a reason (in its
-- history, 'stage'): forward past a stage, or back to one (a new pass, at the front of that
-- stage's queue). Refused while an editor holds it (force release it first: a lease is for one
-- stage) and for an article not in review. At a four-eyes stage the claim passes over whoever
-- approved it at another stage. The feed gets a stage_moved event (a step of the chain, like a
-- decision's stage_passed), with the stage and where the article went.
CREATE PROCEDURE move_to_stage(IN p_as VARCHAR(64), IN p_article BIGINT, IN p_stage VARCHAR(32), IN p_reason VARCHAR(2000))
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_actor VARCHAR(64);
    DECLARE v_now DATETIME(6);
    DECLARE v_found BIGINT DEFAULT NULL;
    DECLARE v_status VARCHAR(16);
    DECLARE v_desk VARCHAR(32);
    DECLARE v_stage VARCHAR(32);
    DECLARE v_owner VARCHAR(64);
    DECLARE v_expires DATETIME(6);
    DECLARE v_from INT;
    DECLARE v_to INT;
    DECLARE v_four_eyes INT;
    DECLARE v_barred VARCHAR(2000);
    DECLARE v_external VARCHAR(128);
    DECLARE v_attempts INT;
    DECLARE CONTINUE HANDLER FOR NOT FOUND BEGIN END;
    DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN CALL operation_fails(); RESIGNAL; END;
    CALL operation_begins();
    CALL resolve_actor(p_as, 'supervisor', v_actor);
    SET p_reason = plain_text(p_reason, 1000, 0);
    IF TRIM(COALESCE(p_reason, '')) = '' THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: moving an article to another stage needs a reason';
    END IF;
    START TRANSACTION;
    SET v_now = server_utc_now();
    SELECT id, status, desk_id, stage_id, locked_by, expires_at, external_id, attempts
      INTO v_found, v_status, v_desk, v_stage, v_owner, v_expires, v_external, v_attempts
      FROM article WHERE id = p_article FOR UPDATE;
    IF v_found IS NULL OR v_status NOT IN ('queued', 'awaiting_writer', 'quarantined') THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: this article is not in review';
    END IF;
    IF v_owner IS NOT NULL AND v_expires > v_now THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: an editor is reviewing this article now; force release it first';
    END IF;
    SELECT position INTO v_from FROM desk_stage WHERE desk_id = v_desk AND stage_id = v_stage;
    SELECT position, four_eyes INTO v_to, v_four_eyes FROM desk_stage WHERE desk_id = v_desk AND stage_id = p_stage;
    IF v_to IS NULL OR v_from IS NULL OR v_to = v_from THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: the article can move only to another stage of its desk';
    END IF;
    IF v_four_eyes = 1 THEN
        SELECT GROUP_CONCAT(DISTINCT editor_id) INTO v_barred FROM decision
         WHERE article_id = p_article AND verdict = 'approve' AND stage_id IS NOT NULL AND stage_id <> p_stage;
    END IF;
    UPDATE article
       SET stage_id = p_stage, pass = pass + IF(v_to < v_from, 1, 0), queue_lane = IF(v_to < v_from, 0, queue_lane),
           four_eyes_barred = v_barred, updated_at = v_now
     WHERE id = p_article;
    CALL log_event(p_article, 'stage', v_actor, NULL, NULL, NULL, NULL, NULL,
                   CONCAT('moved from ', v_stage, ' to ', p_stage, ': ', p_reason), v_now);
    -- last: the feed's order lock is held until the COMMIT (see decide_at_stage)
    UPDATE outcome_order SET last_event = v_now WHERE id = 1;
    INSERT INTO outcome_event (idempotency_key, outcome, article_id, external_id, desk_id, editor_id, verdict, notes,
                               article_status, send_backs, returns_at, lease_token, decided_at, next_attempt_at,
                               stage_id, to_stage_id)
    VALUES (UUID(), 'stage_moved', p_article, v_external, v_desk, v_actor, NULL, p_reason, v_status, v_attempts, NULL, NULL,
            v_now, v_now, v_stage, p_stage);
    COMMIT;
    SELECT p_article AS article_id, p_stage AS stage_id, v_now AS server_now;
END$$

DELIMITER ;
