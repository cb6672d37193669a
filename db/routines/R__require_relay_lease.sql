DROP PROCEDURE IF EXISTS require_relay_lease;

DELIMITER $$

-- Locks the relay lease and checks p_token still holds it. Not granted to anyone.
CREATE PROCEDURE require_relay_lease(IN p_token BIGINT, IN p_now DATETIME(6))
    SQL SECURITY DEFINER READS SQL DATA
BEGIN
    DECLARE v_held INT DEFAULT 0;
    SELECT COUNT(*) INTO v_held FROM relay_lease
     WHERE id = 1 AND token = p_token AND holder IS NOT NULL AND expires_at > p_now FOR UPDATE;
    IF v_held = 0 THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: this relay no longer holds the delivery lease (it lapsed, or another relay took over)';
    END IF;
END$$

DELIMITER ;
