DROP PROCEDURE IF EXISTS relay_acquire;

DELIMITER $$

-- Takes or renews the delivery lease for p_instance (a relay process) for p_seconds (3 to 3600).
-- A lease another instance holds and that has not run out is not taken. A relay that takes the
-- lease over holds it under p_token, a random number of its own (at least 2^32, never the token
-- before): every later write of that relay carries it, and no other relay can guess it, as it could
-- guess the next of a counter. Renewing keeps the token. Result: token (0 when not taken), holder,
-- expires_at, server_now.
CREATE PROCEDURE relay_acquire(IN p_instance VARCHAR(200), IN p_seconds INT, IN p_token BIGINT)
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_actor VARCHAR(64);
    DECLARE v_now DATETIME(6);
    DECLARE v_holder VARCHAR(200);
    DECLARE v_token BIGINT;
    DECLARE v_expires DATETIME(6);
    DECLARE v_until DATETIME(6);
    DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN CALL operation_fails(); RESIGNAL; END;
    CALL operation_begins();
    CALL resolve_relay(v_actor);
    IF TRIM(COALESCE(p_instance, '')) = '' THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: a relay names itself';
    END IF;
    START TRANSACTION;
    SET v_now = server_utc_now();
    SELECT holder, token, expires_at INTO v_holder, v_token, v_expires FROM relay_lease WHERE id = 1 FOR UPDATE;
    IF v_holder IS NULL OR v_expires <= v_now OR v_holder = p_instance THEN
        IF v_holder IS NULL OR v_holder <> p_instance THEN
            IF p_token IS NULL OR p_token < 4294967296 OR p_token = v_token THEN
                SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: a relay takes the delivery lease with a random token of its own';
            END IF;
            SET v_token = p_token;
        END IF;
        SET v_until = TIMESTAMPADD(SECOND, GREATEST(3, LEAST(COALESCE(p_seconds, 30), 3600)), v_now);
        UPDATE relay_lease SET holder = p_instance, token = v_token, expires_at = v_until WHERE id = 1;
        COMMIT;
        SELECT v_token AS token, p_instance AS holder, v_until AS expires_at, v_now AS server_now;
    ELSE
        COMMIT;
        SELECT 0 AS token, v_holder AS holder, v_expires AS expires_at, v_now AS server_now;
    END IF;
END$$

DELIMITER ;
