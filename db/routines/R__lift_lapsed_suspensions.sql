DROP PROCEDURE IF EXISTS lift_lapsed_suspensions;

DELIMITER $$

-- Unlocks the accounts whose suspension ended before p_now. Internal: the sweep calls it.
CREATE PROCEDURE lift_lapsed_suspensions(IN p_now DATETIME(6))
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_account VARCHAR(64);
    DECLARE v_done INT DEFAULT 0;
    DECLARE lapsed CURSOR FOR SELECT account FROM account_suspension WHERE suspended_until <= p_now;
    DECLARE CONTINUE HANDLER FOR NOT FOUND SET v_done = 1;
    OPEN lapsed;
    each_lapsed: LOOP
        FETCH lapsed INTO v_account;
        IF v_done = 1 THEN LEAVE each_lapsed; END IF;
        CALL unlock_account(v_account);
    END LOOP;
    CLOSE lapsed;
END$$

DELIMITER ;
