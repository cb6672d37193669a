DROP PROCEDURE IF EXISTS relay_release;

DELIMITER $$

-- Gives the delivery lease up (a relay that stops cleanly), so the next one need not wait.
CREATE PROCEDURE relay_release(IN p_token BIGINT)
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_actor VARCHAR(64);
    CALL operation_begins();
    CALL resolve_relay(v_actor);
    UPDATE relay_lease SET holder = NULL, expires_at = NULL WHERE id = 1 AND token = p_token;
    SELECT ROW_COUNT() AS released;
END$$

DELIMITER ;
