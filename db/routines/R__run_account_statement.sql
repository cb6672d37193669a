DROP PROCEDURE IF EXISTS run_account_statement;

DELIMITER $$

-- Runs one account statement built by the account operations (apply_role, create_account, …).
-- Not granted to anyone. (PREPARE takes only a user variable; it is set right here, so nothing the
-- caller set before is used.)
CREATE PROCEDURE run_account_statement(IN p_sql TEXT)
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    SET @copydesk_account_statement = p_sql;
    PREPARE account_statement FROM @copydesk_account_statement;
    EXECUTE account_statement;
    DEALLOCATE PREPARE account_statement;
    SET @copydesk_account_statement = NULL;
END$$

DELIMITER ;
