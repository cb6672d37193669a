DROP PROCEDURE IF EXISTS reassign_article;

DELIMITER $$

-- Gives the article to p_to under a new lease of the desk's length: one an editor holds (a
-- reassignment) or one that waits in the queue (a supervisor's hold on it ends). Refused when the
-- article is not waiting for review or is under embargo, when its desk is not one of p_to's
-- (unless p_outside_desk: then p_to gets this lease only, not the desk), or when p_to already
-- holds their capacity (unless p_override).
-- The editor who held it is kept from it (kept_from: their claims pass it over until a supervisor
-- lets them have it again, or someone decides it), and their notes go to p_to (hand_over_notes):
-- p_to's draft starts with them under the writer's name (when it has room), and the history keeps
-- them ('notes_handed_over'). Giving it to the editor it was kept from ends the keeping.
-- Result: the new lease.
CREATE PROCEDURE reassign_article(IN p_as VARCHAR(64), IN p_article BIGINT, IN p_to VARCHAR(64), IN p_override INT,
                                  IN p_outside_desk INT, IN p_reason VARCHAR(2000))
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_off_desk INT;
    DECLARE v_actor VARCHAR(64);
    DECLARE v_now DATETIME(6);
    DECLARE v_found BIGINT DEFAULT NULL;
    DECLARE v_status VARCHAR(16);
    DECLARE v_desk VARCHAR(32);
    DECLARE v_owner VARCHAR(64);
    DECLARE v_token BIGINT;
    DECLARE v_old_expires DATETIME(6);
    DECLARE v_available DATETIME(6);
    DECLARE v_kept VARCHAR(64);
    DECLARE v_lease INT;
    DECLARE v_stage VARCHAR(32);
    DECLARE v_not_taker INT;
    DECLARE v_four_eyes_barred INT;
    DECLARE v_expires DATETIME(6);
    DECLARE v_capacity INT DEFAULT NULL;
    DECLARE v_held INT;
    DECLARE CONTINUE HANDLER FOR NOT FOUND BEGIN END;
    DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN CALL operation_fails(); RESIGNAL; END;
    CALL operation_begins();
    CALL resolve_actor(p_as, 'supervisor', v_actor);
    -- what people and other systems type is stored as plain text (plain_text)
    SET p_reason = plain_text(p_reason, 2000, 0);
    START TRANSACTION;
    SET v_now = server_utc_now();
    SELECT capacity INTO v_capacity FROM editor WHERE id = p_to FOR UPDATE;
    IF v_capacity IS NULL THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: there is no editor of that name';
    END IF;
    SELECT id, status, desk_id, locked_by, lease_token, expires_at, available_at, kept_from, stage_id
      INTO v_found, v_status, v_desk, v_owner, v_token, v_old_expires, v_available, v_kept, v_stage
      FROM article WHERE id = p_article FOR UPDATE;
    IF v_found IS NULL OR v_status <> 'queued' THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: this article is not waiting for review';
    END IF;
    IF v_available > v_now THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: this article is under embargo and cannot be given before its time';
    END IF;
    SELECT v_stage IS NULL AND COALESCE(p_outside_desk, 0) = 0
           AND NOT EXISTS (SELECT 1 FROM editor_desk WHERE editor_id = p_to AND desk_id = v_desk) INTO v_off_desk;
    IF v_off_desk THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: that editor does not work on this article''s desk';
    END IF;
    -- at a stage: only to someone who may take and decide it (outside_desk does not override the
    -- stage's takers, whose decision the database would refuse), and four eyes holds
    IF v_stage IS NOT NULL THEN
        SELECT NOT EXISTS (SELECT 1 FROM desk_stage s WHERE s.desk_id = v_desk AND s.stage_id = v_stage
                             AND ((s.takers = 'desk' AND (COALESCE(p_outside_desk, 0) = 1
                                       OR EXISTS (SELECT 1 FROM editor_desk d WHERE d.editor_id = p_to AND d.desk_id = v_desk)))
                                  OR (s.takers = 'named' AND EXISTS (SELECT 1 FROM stage_taker t WHERE t.desk_id = v_desk
                                                                       AND t.stage_id = v_stage AND t.editor_id = p_to)))),
               EXISTS (SELECT 1 FROM desk_stage s WHERE s.desk_id = v_desk AND s.stage_id = v_stage AND s.four_eyes = 1)
               AND EXISTS (SELECT 1 FROM decision WHERE article_id = p_article AND editor_id = p_to AND verdict = 'approve'
                              AND stage_id IS NOT NULL AND stage_id <> v_stage)
          INTO v_not_taker, v_four_eyes_barred;
        IF v_not_taker THEN
            SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: that editor does not take this article''s stage';
        END IF;
        IF v_four_eyes_barred THEN
            SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: four eyes: that editor approved this article at another stage';
        END IF;
    END IF;
    SELECT (SELECT COUNT(*) FROM article WHERE locked_by = p_to AND expires_at > v_now AND id <> p_article) INTO v_held;
    IF v_held >= v_capacity AND COALESCE(p_override, 0) = 0 THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: that editor already holds as many articles as their capacity';
    END IF;
    -- who it is kept from now: whoever held it (a lease that ran out is nobody's), else as it was,
    -- and nobody when it is given to the one it was kept from
    IF v_owner IS NOT NULL AND v_owner <> p_to AND v_old_expires > v_now THEN
        SET v_kept = v_owner;
    ELSEIF v_kept <=> p_to THEN
        SET v_kept = NULL;
    END IF;
    -- the stage's lease length if it has one, else the desk's
    SELECT TIMESTAMPDIFF(SECOND, v_now, lease_expiry(v_desk, v_stage, NULL, v_now)) INTO v_lease;
    SET v_expires = TIMESTAMPADD(SECOND, v_lease, v_now);
    UPDATE article SET locked_by = p_to, expires_at = v_expires, lease_token = lease_token + 1, queue_lane = 0,
                       claimed_at = v_now, renewals = 0, kept_from = v_kept, held_by = NULL, held_at = NULL
     WHERE id = p_article;
    CALL log_event(p_article, 'reassign', v_actor, v_owner, p_to, IF(v_owner IS NULL, NULL, v_token), v_token + 1,
                   v_expires, NULLIF(TRIM(p_reason), ''), v_now);
    -- the notes the editor who held it wrote go with it
    IF v_owner IS NOT NULL AND v_owner <> p_to THEN
        CALL hand_over_notes(p_article, v_actor, v_owner, p_to, v_now);
    END IF;
    COMMIT;
    SELECT p_article AS article_id, p_to AS owner, v_token + 1 AS lease_token, v_expires AS expires_at,
           v_now AS server_now, v_held AS held_before;
END$$

DELIMITER ;
