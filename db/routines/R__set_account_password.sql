DROP PROCEDURE IF EXISTS set_account_password;

DELIMITER $$

-- An admin gives a person's existing account a new password (one password_refusal accepts). This is
-- also how an admin unblocks an account that wrong passwords blocked: any ALTER USER lifts MariaDB's
-- max_password_errors block, and on MySQL setting sign_in_limit again resets its count and lock.
CREATE PROCEDURE set_account_password(IN p_name VARCHAR(64), IN p_password VARCHAR(200))
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_actor VARCHAR(64);
    DECLARE v_role VARCHAR(16);
    DECLARE v_refusal VARCHAR(128);
    CALL operation_begins();
    CALL resolve_actor(NULL, 'admin', v_actor);
    CALL require_person(p_name, v_role);
    SELECT password_refusal(p_name, (SELECT display_name FROM editor WHERE id = p_name), p_password, 8) INTO v_refusal;
    IF v_refusal IS NOT NULL THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = v_refusal;
    END IF;
    IF NOT EXISTS (SELECT 1 FROM mysql.user WHERE user = p_name AND host = '%') THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: that person has no database account yet';
    END IF;
    CALL run_account_statement(CONCAT('ALTER USER ', QUOTE(p_name), '@''%'' IDENTIFIED BY ', QUOTE(p_password), sign_in_limit()));
END$$

DELIMITER ;
