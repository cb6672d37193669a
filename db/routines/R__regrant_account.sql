DROP PROCEDURE IF EXISTS regrant_account;

DELIMITER $$

-- An admin gives one person's or other system's account the rights and limits of its role or kind
-- as they are now (after its role changed). Also the second step of creating an admin's account:
-- MariaDB cannot grant EXECUTE on a routine while it runs, so create_account leaves that one right
-- to this operation. Result: 1.
CREATE PROCEDURE regrant_account(IN p_name VARCHAR(64))
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_actor VARCHAR(64);
    DECLARE v_role VARCHAR(16) DEFAULT NULL;
    CALL operation_begins();
    CALL resolve_actor(NULL, 'admin', v_actor);
    CALL check_role_grant();
    -- SELECT … INTO: SET v = (SELECT … FROM managed_account) reads `editor` with shared locks (suspend_account)
    SELECT MAX(role) INTO v_role FROM managed_account WHERE BINARY name = p_name;
    IF v_role IS NULL THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: that is not an account of a person or of another system of this newsroom';
    END IF;
    CALL apply_role(p_name, v_role, 'regrant_account');
    SELECT 1 AS regranted;
END$$

DELIMITER ;
