DROP PROCEDURE IF EXISTS set_stage_takers;

DELIMITER $$

-- An admin names who takes a stage whose takers are 'named' (p_editors: ids, comma-separated; the
-- list replaces the one before). A named person need not be on the desk: a lawyer reads Legal for
-- every desk. History: a 'stages' row for the desk.
CREATE PROCEDURE set_stage_takers(IN p_as VARCHAR(64), IN p_desk VARCHAR(32), IN p_stage VARCHAR(32), IN p_editors VARCHAR(4000))
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_actor VARCHAR(64);
    DECLARE v_now DATETIME(6);
    DECLARE v_rest VARCHAR(4000);
    DECLARE v_editor VARCHAR(4000);
    DECLARE v_found INT;
    DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN CALL operation_fails(); RESIGNAL; END;
    CALL operation_begins();
    CALL resolve_actor(p_as, 'admin', v_actor);
    SET p_editors = NULLIF(REPLACE(p_editors, ' ', ''), '');
    START TRANSACTION;
    SET v_now = server_utc_now();
    -- the stage's row, locked: one change of its takers at a time
    SELECT COUNT(*) INTO v_found FROM desk_stage WHERE desk_id = p_desk AND stage_id = p_stage FOR UPDATE;
    IF v_found = 0 THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: the desk has no stage of that name';
    END IF;
    DELETE FROM stage_taker WHERE desk_id = p_desk AND stage_id = p_stage;
    SET v_rest = p_editors;
    WHILE v_rest IS NOT NULL DO
        SET v_editor = SUBSTRING_INDEX(v_rest, ',', 1);
        SET v_rest = NULLIF(SUBSTRING(v_rest, CHAR_LENGTH(v_editor) + 2), '');
        SELECT EXISTS (SELECT 1 FROM editor WHERE id = v_editor) INTO v_found;
        IF NOT v_found THEN
            SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: there is no editor of that name';
        END IF;
        INSERT INTO stage_taker (desk_id, stage_id, editor_id) VALUES (p_desk, p_stage, v_editor)
        ON DUPLICATE KEY UPDATE editor_id = VALUES(editor_id);
    END WHILE;
    INSERT INTO lease_event (occurred_at, resource, row_key, action, actor, detail, acted_by)
    VALUES (v_now, 'desk', CAST(p_desk AS CHAR), 'stages', v_actor,
            plain_text(CONCAT('takers of ', p_stage, ': ', COALESCE(p_editors, 'nobody')), 2000, 0), acted_by(v_actor));
    COMMIT;
    SELECT editor_id FROM stage_taker WHERE desk_id = p_desk AND stage_id = p_stage ORDER BY editor_id;
END$$

DELIMITER ;
