DROP PROCEDURE IF EXISTS set_account_password;

DELIMITER $$

-- An admin gives a person's existing account a new password (at least 8 characters).
CREATE PROCEDURE set_account_password(IN p_name VARCHAR(64), IN p_password VARCHAR(200))
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_actor VARCHAR(64);
    DECLARE v_role VARCHAR(16);
    CALL operation_begins();
    CALL resolve_actor(NULL, 'admin', v_actor);
    CALL require_person(p_name, v_role);
    IF p_password IS NULL OR CHAR_LENGTH(p_password) < 8 THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: a password has at least 8 characters';
    END IF;
    IF NOT EXISTS (SELECT 1 FROM mysql.user WHERE user = p_name AND host = '%') THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: that person has no database account yet';
    END IF;
    CALL run_account_statement(CONCAT('ALTER USER ', QUOTE(p_name), '@''%'' IDENTIFIED BY ', QUOTE(p_password)));
END$$

DELIMITER ;
