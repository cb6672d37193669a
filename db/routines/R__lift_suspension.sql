DROP PROCEDURE IF EXISTS lift_suspension;

DELIMITER $$

-- An admin lets a suspended person or system sign in again before the suspension ends. Only
-- accounts the sweep suspended (a row of account_suspension) are unlocked here.
-- Result: 1 when one was lifted, else 0.
CREATE PROCEDURE lift_suspension(IN p_name VARCHAR(64))
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_suspended INT;
    DECLARE v_actor VARCHAR(64);
    DECLARE v_lifted INT DEFAULT 0;
    CALL operation_begins();
    CALL resolve_actor(NULL, 'admin', v_actor);
    SELECT EXISTS (SELECT 1 FROM account_suspension WHERE account = p_name) INTO v_suspended;
    IF v_suspended THEN
        CALL unlock_account(p_name);
        SET v_lifted = 1;
    END IF;
    SELECT v_lifted AS lifted;
END$$

DELIMITER ;
