DROP PROCEDURE IF EXISTS unlock_account;

DELIMITER $$

-- Ends an account's suspension: unlocked, and its row of account_suspension gone. Internal.
CREATE PROCEDURE unlock_account(IN p_account VARCHAR(64))
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    IF is_account_name(p_account) = 1 AND EXISTS (SELECT 1 FROM mysql.user WHERE user = p_account AND host = '%') THEN
        CALL run_account_statement(CONCAT('ALTER USER ', QUOTE(p_account), '@''%'' ACCOUNT UNLOCK'));
    END IF;
    DELETE FROM account_suspension WHERE account = p_account;
END$$

DELIMITER ;
