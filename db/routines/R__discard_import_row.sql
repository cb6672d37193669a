DROP PROCEDURE IF EXISTS discard_import_row;

DELIMITER $$

-- Marks a row an import kept aside as dealt with, without making an article.
CREATE PROCEDURE discard_import_row(IN p_as VARCHAR(64), IN p_row BIGINT)
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_actor VARCHAR(64);
    CALL operation_begins();
    CALL resolve_actor(p_as, 'supervisor', v_actor);
    UPDATE import_quarantine SET resolved_at = server_utc_now() WHERE id = p_row AND resolved_at IS NULL;
    IF ROW_COUNT() = 0 THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: this import row is not waiting for correction any more';
    END IF;
END$$

DELIMITER ;
