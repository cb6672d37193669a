DROP PROCEDURE IF EXISTS suspend_account;

DELIMITER $$

-- Locks a person's or another system's account until p_until (sign-in refused: "this account is
-- locked") and ends its other sessions. The sweep calls it for an account whose session held row
-- locks or too much memory; the lock is lifted by the sweep once the time is up, or by an admin
-- (lift_suspension). Only an editor's, a supervisor's or another system's account that Copydesk made
-- (managed_account): never the owner, root, a DBA's, an admin's or another application's account,
-- whatever rows of `editor` name them. Internal: granted to nobody.
CREATE PROCEDURE suspend_account(IN p_account VARCHAR(64), IN p_until DATETIME(6))
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_thread BIGINT;
    DECLARE v_done INT DEFAULT 0;
    DECLARE v_managed INT;
    DECLARE others CURSOR FOR SELECT id FROM information_schema.processlist WHERE user = p_account AND id <> CONNECTION_ID();
    DECLARE CONTINUE HANDLER FOR NOT FOUND SET v_done = 1;
    -- A SELECT … INTO, not IF EXISTS (…): on MariaDB a condition that reads the managed_account view
    -- reads `editor` with shared locks, so the sweep waited behind any editor's update that waited
    -- for the very holder it was suspending (honest calls stalled 15-45 s in the hostile soak).
    SELECT COUNT(*) INTO v_managed FROM managed_account WHERE BINARY name = p_account AND role <> 'admin';
    IF is_account_name(p_account) = 0 OR v_managed = 0 THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: that is not an account of the newsroom''s that may be suspended';
    END IF;
    INSERT INTO account_suspension (account, suspended_at, suspended_until)
    VALUES (p_account, server_utc_now(), p_until)
    ON DUPLICATE KEY UPDATE suspended_until = GREATEST(suspended_until, VALUES(suspended_until));
    CALL run_account_statement(CONCAT('ALTER USER ', QUOTE(p_account), '@''%'' ACCOUNT LOCK'));
    OPEN others;
    each_other: LOOP
        FETCH others INTO v_thread;
        IF v_done = 1 THEN LEAVE each_other; END IF;
        BEGIN
            DECLARE CONTINUE HANDLER FOR SQLEXCEPTION BEGIN END;
            KILL CONNECTION v_thread;
        END;
    END LOOP;
    CLOSE others;
END$$

DELIMITER ;
