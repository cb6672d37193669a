DROP PROCEDURE IF EXISTS record_presence;

DELIMITER $$

-- A sign of life from the editor's client (drives online/idle/offline on the dashboard).
CREATE PROCEDURE record_presence(IN p_as VARCHAR(64))
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_actor VARCHAR(64);
    CALL operation_begins();
    CALL resolve_actor(p_as, 'editor', v_actor);
    UPDATE editor SET last_seen_at = server_utc_now() WHERE id = v_actor;
END$$

DELIMITER ;
