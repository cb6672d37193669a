DROP PROCEDURE IF EXISTS set_desk_stage;

DELIMITER $$

-- An admin adds a stage to a desk's chain, or changes one: its name, lease length (NULL: the
-- desk's), whether it is always entered or only when asked, four eyes, and who takes it ('desk' or
-- 'named': set_stage_takers). A new stage goes at the end of the chain, or at p_position (the
-- stages from there on move down one). The chain keeps a stage every article enters ('always'),
-- the stage every new article starts at. The desk's first stage takes in its articles still in
-- review (queued, waiting for the writer, quarantined): they are at its start. History: a 'stages'
-- row for the desk.
CREATE PROCEDURE set_desk_stage(IN p_as VARCHAR(64), IN p_desk VARCHAR(32), IN p_stage VARCHAR(32), IN p_name VARCHAR(100),
                                IN p_position INT, IN p_lease_seconds INT, IN p_entered VARCHAR(16), IN p_four_eyes INT,
                                IN p_takers VARCHAR(8))
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_actor VARCHAR(64);
    DECLARE v_now DATETIME(6);
    DECLARE v_max INT;
    DECLARE v_count INT;
    DECLARE v_exists INT;
    DECLARE v_entered INT; -- the chain keeps a stage every article enters
    DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN CALL operation_fails(); RESIGNAL; END;
    CALL operation_begins();
    CALL resolve_actor(p_as, 'admin', v_actor);
    SET p_name = plain_text(p_name, 100, 0);
    IF is_account_name(p_stage) = 0 THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: a stage id is 1 to 32 of A-Z a-z 0-9 _ . -';
    END IF;
    IF TRIM(COALESCE(p_name, '')) = '' THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: a stage needs a name';
    END IF;
    IF COALESCE(p_entered, 'always') NOT IN ('always', 'when_asked') OR COALESCE(p_takers, 'desk') NOT IN ('desk', 'named')
       OR COALESCE(p_four_eyes, 0) NOT IN (0, 1) THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: a stage is entered always or when_asked, taken by desk or named, four eyes 0 or 1';
    END IF;
    START TRANSACTION;
    SET v_now = server_utc_now();
    -- the desk's row, locked: one change of its chain at a time
    SELECT max_lease_seconds INTO v_max FROM desk WHERE id = p_desk FOR UPDATE;
    IF v_max IS NULL THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: there is no desk of that name';
    END IF;
    IF p_lease_seconds IS NOT NULL AND (p_lease_seconds < 30 OR p_lease_seconds > v_max) THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: a stage''s lease is 30 seconds to the desk''s longest hold';
    END IF;
    SELECT COUNT(*), SUM(stage_id = p_stage) INTO v_count, v_exists FROM desk_stage WHERE desk_id = p_desk;
    IF COALESCE(v_exists, 0) = 1 THEN
        UPDATE desk_stage SET name = TRIM(p_name), lease_seconds = p_lease_seconds, entered = COALESCE(p_entered, 'always'),
               four_eyes = COALESCE(p_four_eyes, 0), takers = COALESCE(p_takers, 'desk')
         WHERE desk_id = p_desk AND stage_id = p_stage;
    ELSE
        IF v_count >= 50 THEN
            SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: a desk has at most 50 stages';
        END IF;
        SET p_position = LEAST(GREATEST(COALESCE(p_position, v_count + 1), 1), v_count + 1);
        -- make room: up past every position first, then back, so the unique positions never collide
        UPDATE desk_stage SET position = position + 100 WHERE desk_id = p_desk AND position >= p_position;
        UPDATE desk_stage SET position = position - 99 WHERE desk_id = p_desk AND position >= 100;
        INSERT INTO desk_stage (desk_id, stage_id, position, name, lease_seconds, entered, four_eyes, takers)
        VALUES (p_desk, p_stage, p_position, TRIM(p_name), p_lease_seconds, COALESCE(p_entered, 'always'),
                COALESCE(p_four_eyes, 0), COALESCE(p_takers, 'desk'));
    END IF;
    SELECT EXISTS (SELECT 1 FROM desk_stage WHERE desk_id = p_desk AND entered = 'always') INTO v_entered;
    IF NOT v_entered THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: a desk''s chain needs a stage every article enters (always)';
    END IF;
    IF v_count = 0 THEN
        -- the desk's first stage: what is in review on the desk is at its start now
        UPDATE article SET stage_id = p_stage, updated_at = v_now
         WHERE desk_id = p_desk AND stage_id IS NULL AND status IN ('queued', 'awaiting_writer', 'quarantined');
    END IF;
    INSERT INTO lease_event (occurred_at, resource, row_key, action, actor, detail, acted_by)
    VALUES (v_now, 'desk', CAST(p_desk AS CHAR), 'stages', v_actor,
            CONCAT(IF(COALESCE(v_exists, 0) = 1, 'changed stage ', 'added stage '), p_stage, ' (', TRIM(p_name), ')'),
            acted_by(v_actor));
    COMMIT;
    SELECT stage_id, position, name, lease_seconds, entered, four_eyes, takers FROM desk_stage
     WHERE desk_id = p_desk ORDER BY position;
END$$

DELIMITER ;
