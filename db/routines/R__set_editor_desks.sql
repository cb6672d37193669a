DROP PROCEDURE IF EXISTS set_editor_desks;

DELIMITER $$

-- A supervisor sets the desks a person works on (a comma-separated list of desk ids).
CREATE PROCEDURE set_editor_desks(IN p_editor VARCHAR(64), IN p_desks VARCHAR(2000))
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_no_editor INT;
    DECLARE v_no_desk INT;
    DECLARE v_actor VARCHAR(64);
    DECLARE v_rest VARCHAR(2000) DEFAULT TRIM(COALESCE(p_desks, ''));
    DECLARE v_desk VARCHAR(2000);
    DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN CALL operation_fails(); RESIGNAL; END;
    CALL operation_begins();
    CALL resolve_actor(NULL, 'supervisor', v_actor);
    SELECT NOT EXISTS (SELECT 1 FROM editor WHERE id = p_editor) INTO v_no_editor;
    IF v_no_editor THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: there is no editor of that name';
    END IF;
    START TRANSACTION;
    DELETE FROM editor_desk WHERE editor_id = p_editor;
    WHILE v_rest <> '' DO
        SET v_desk = TRIM(SUBSTRING_INDEX(v_rest, ',', 1));
        SET v_rest = IF(LOCATE(',', v_rest) > 0, TRIM(SUBSTRING(v_rest, LOCATE(',', v_rest) + 1)), '');
        IF v_desk <> '' THEN
            SELECT NOT EXISTS (SELECT 1 FROM desk WHERE id = v_desk) INTO v_no_desk;
            IF v_no_desk THEN
                SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: there is no desk of that name';
            END IF;
            INSERT IGNORE INTO editor_desk (editor_id, desk_id) VALUES (p_editor, v_desk);
        END IF;
    END WHILE;
    COMMIT;
END$$

DELIMITER ;
