DROP PROCEDURE IF EXISTS order_desk_stages;

DELIMITER $$

-- An admin puts a desk's chain in a new order: p_order names every stage of the desk once,
-- comma-separated, first stage first. Articles stay at their stages. History: a 'stages' row.
CREATE PROCEDURE order_desk_stages(IN p_as VARCHAR(64), IN p_desk VARCHAR(32), IN p_order VARCHAR(2000))
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_actor VARCHAR(64);
    DECLARE v_now DATETIME(6);
    DECLARE v_found VARCHAR(32);
    DECLARE v_rest VARCHAR(2000);
    DECLARE v_stage VARCHAR(2000);
    DECLARE v_position INT DEFAULT 0;
    DECLARE v_count INT;
    DECLARE CONTINUE HANDLER FOR NOT FOUND BEGIN END;
    DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN CALL operation_fails(); RESIGNAL; END;
    CALL operation_begins();
    CALL resolve_actor(p_as, 'admin', v_actor);
    SET p_order = NULLIF(REPLACE(p_order, ' ', ''), '');
    START TRANSACTION;
    SET v_now = server_utc_now();
    SELECT id INTO v_found FROM desk WHERE id = p_desk FOR UPDATE;
    IF v_found IS NULL THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: there is no desk of that name';
    END IF;
    SELECT COUNT(*) INTO v_count FROM desk_stage WHERE desk_id = p_desk;
    -- out of the way first (positions are unique per desk), then each at its place
    UPDATE desk_stage SET position = position + 100 WHERE desk_id = p_desk;
    SET v_rest = p_order;
    WHILE v_rest IS NOT NULL DO
        SET v_stage = SUBSTRING_INDEX(v_rest, ',', 1);
        SET v_rest = NULLIF(SUBSTRING(v_rest, CHAR_LENGTH(v_stage) + 2), '');
        SET v_position = v_position + 1;
        UPDATE desk_stage SET position = v_position WHERE desk_id = p_desk AND stage_id = v_stage AND position > 100;
        IF ROW_COUNT() <> 1 THEN
            SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: the new order names each stage of the desk once, and only those';
        END IF;
    END WHILE;
    IF v_position <> v_count THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: the new order names each stage of the desk once, and only those';
    END IF;
    INSERT INTO lease_event (occurred_at, resource, row_key, action, actor, detail, acted_by)
    VALUES (v_now, 'desk', CAST(p_desk AS CHAR), 'stages', v_actor, plain_text(CONCAT('new order: ', p_order), 2000, 0),
            acted_by(v_actor));
    COMMIT;
    SELECT stage_id, position, name, lease_seconds, entered, four_eyes, takers FROM desk_stage
     WHERE desk_id = p_desk ORDER BY position;
END$$

DELIMITER ;
