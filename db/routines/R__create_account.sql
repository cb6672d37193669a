DROP PROCEDURE IF EXISTS create_account;

DELIMITER $$

-- An admin creates (or renews) a person's account with the rights and limits of their role. An
-- admin's account gets its right to call this operation from regrant_account (MariaDB cannot grant
-- EXECUTE on a routine while it runs); AccountAdministration.createAccount calls both. The password
-- must pass password_refusal; on MySQL the account is locked after 10 wrong passwords (sign_in_limit).
CREATE PROCEDURE create_account(IN p_name VARCHAR(64), IN p_password VARCHAR(200))
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_actor VARCHAR(64);
    DECLARE v_role VARCHAR(16);
    DECLARE v_refusal VARCHAR(128);
    CALL operation_begins();
    CALL resolve_actor(NULL, 'admin', v_actor);
    CALL check_role_grant();
    CALL require_person(p_name, v_role);
    SELECT password_refusal(p_name, (SELECT display_name FROM editor WHERE id = p_name), p_password, 8) INTO v_refusal;
    IF v_refusal IS NOT NULL THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = v_refusal;
    END IF;
    CALL run_account_statement(CONCAT('CREATE USER IF NOT EXISTS ', QUOTE(p_name), '@''%'' IDENTIFIED BY ', QUOTE(p_password)));
    CALL run_account_statement(CONCAT('ALTER USER ', QUOTE(p_name), '@''%'' IDENTIFIED BY ', QUOTE(p_password), sign_in_limit()));
    -- from here on the sweep and suspend_account may act on it (managed_account)
    INSERT INTO person_account (name, created_at) VALUES (p_name, server_utc_now()) ON DUPLICATE KEY UPDATE created_at = created_at;
    CALL apply_role(p_name, v_role, 'create_account');
END$$

DELIMITER ;
