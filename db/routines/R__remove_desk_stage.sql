DROP PROCEDURE IF EXISTS remove_desk_stage;

DELIMITER $$

-- An admin removes a stage from a desk's chain. A stage that holds articles in review (waiting,
-- held, waiting for the writer, quarantined) is removed only with p_move_to, another stage of the
-- desk where they go (a holder keeps the lease and decides at that stage); the desk's last stage
-- only with p_move_to NULL, which makes it a desk without stages again. Articles decided at the
-- stage keep their decisions (decision.stage_id); they move with the others. History: a 'stages'
-- row for the desk and a 'stage' row for each article moved.
CREATE PROCEDURE remove_desk_stage(IN p_as VARCHAR(64), IN p_desk VARCHAR(32), IN p_stage VARCHAR(32), IN p_move_to VARCHAR(32))
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_actor VARCHAR(64);
    DECLARE v_now DATETIME(6);
    DECLARE v_position INT;
    DECLARE v_count INT;
    DECLARE v_in_review INT;
    DECLARE v_target INT; -- p_move_to is another stage of the desk
    DECLARE v_entered INT; -- the chain keeps a stage every article enters
    DECLARE CONTINUE HANDLER FOR NOT FOUND BEGIN END;
    DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN CALL operation_fails(); RESIGNAL; END;
    CALL operation_begins();
    CALL resolve_actor(p_as, 'admin', v_actor);
    SET p_move_to = NULLIF(TRIM(p_move_to), '');
    START TRANSACTION;
    SET v_now = server_utc_now();
    SELECT COUNT(*) INTO v_count FROM desk WHERE id = p_desk FOR UPDATE;
    SELECT position INTO v_position FROM desk_stage WHERE desk_id = p_desk AND stage_id = p_stage;
    IF v_position IS NULL THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: the desk has no stage of that name';
    END IF;
    SELECT COUNT(*) INTO v_count FROM desk_stage WHERE desk_id = p_desk;
    IF p_move_to IS NULL AND v_count > 1 THEN
        SELECT COUNT(*) INTO v_in_review FROM article
         WHERE desk_id = p_desk AND stage_id = p_stage AND status IN ('queued', 'awaiting_writer', 'quarantined');
        IF v_in_review > 0 THEN
            SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: articles are in review at this stage: say which stage they go to';
        END IF;
    END IF;
    SELECT EXISTS (SELECT 1 FROM desk_stage WHERE desk_id = p_desk AND stage_id = p_move_to) INTO v_target;
    IF p_move_to IS NOT NULL AND (p_move_to = p_stage OR NOT v_target) THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: the articles can go only to another stage of the same desk';
    END IF;
    INSERT INTO lease_event (occurred_at, resource, row_key, action, actor, detail, acted_by)
    SELECT v_now, 'article', CAST(id AS CHAR), 'stage', v_actor,
           CONCAT('stage ', p_stage, ' removed: moved to ', COALESCE(p_move_to, 'a desk without stages')), acted_by(v_actor)
      FROM article WHERE desk_id = p_desk AND stage_id = p_stage AND status IN ('queued', 'awaiting_writer', 'quarantined');
    UPDATE article SET stage_id = p_move_to, four_eyes_barred = NULL, updated_at = v_now
     WHERE desk_id = p_desk AND stage_id = p_stage;
    IF p_move_to IS NULL THEN
        UPDATE article SET stage_id = NULL, four_eyes_barred = NULL WHERE desk_id = p_desk AND stage_id IS NOT NULL;
    END IF;
    DELETE FROM article_stage_request WHERE stage_id = p_stage
       AND article_id IN (SELECT id FROM article WHERE desk_id = p_desk);
    DELETE FROM desk_stage WHERE desk_id = p_desk AND stage_id = p_stage;
    UPDATE desk_stage SET position = position - 1 WHERE desk_id = p_desk AND position > v_position ORDER BY position;
    SELECT EXISTS (SELECT 1 FROM desk_stage WHERE desk_id = p_desk AND entered = 'always') INTO v_entered;
    IF v_count > 1 AND NOT v_entered THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: a desk''s chain needs a stage every article enters (always)';
    END IF;
    INSERT INTO lease_event (occurred_at, resource, row_key, action, actor, detail, acted_by)
    VALUES (v_now, 'desk', CAST(p_desk AS CHAR), 'stages', v_actor,
            CONCAT('removed stage ', p_stage, IF(p_move_to IS NULL, '', CONCAT('; its articles went to ', p_move_to))),
            acted_by(v_actor));
    COMMIT;
    SELECT stage_id, position, name, lease_seconds, entered, four_eyes, takers FROM desk_stage
     WHERE desk_id = p_desk ORDER BY position;
END$$

DELIMITER ;
