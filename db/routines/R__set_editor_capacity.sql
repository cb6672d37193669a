DROP PROCEDURE IF EXISTS set_editor_capacity;

DELIMITER $$

-- A supervisor sets how many articles a person holds at most.
CREATE PROCEDURE set_editor_capacity(IN p_editor VARCHAR(64), IN p_capacity INT)
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_no_editor INT;
    DECLARE v_actor VARCHAR(64);
    CALL operation_begins();
    CALL resolve_actor(NULL, 'supervisor', v_actor);
    IF p_capacity IS NULL OR p_capacity < 0 OR p_capacity > 100 THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: capacity is between 0 and 100 articles';
    END IF;
    SELECT NOT EXISTS (SELECT 1 FROM editor WHERE id = p_editor) INTO v_no_editor;
    IF v_no_editor THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: there is no editor of that name';
    END IF;
    UPDATE editor SET capacity = p_capacity WHERE id = p_editor;
END$$

DELIMITER ;
