DROP PROCEDURE IF EXISTS drop_integration_account;

DELIMITER $$

-- An admin drops the account of another system (a feed reader or a relay) and its listing.
CREATE PROCEDURE drop_integration_account(IN p_name VARCHAR(64))
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_not_one INT;
    DECLARE v_actor VARCHAR(64);
    CALL operation_begins();
    CALL resolve_actor(NULL, 'admin', v_actor);
    SELECT NOT EXISTS (SELECT 1 FROM integration_account WHERE name = p_name) INTO v_not_one;
    IF v_not_one THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: there is no integration account of that name';
    END IF;
    CALL run_account_statement(CONCAT('DROP USER IF EXISTS ', QUOTE(p_name), '@''%'''));
    DELETE FROM integration_account WHERE name = p_name;
END$$

DELIMITER ;
