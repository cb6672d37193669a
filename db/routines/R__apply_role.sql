DROP PROCEDURE IF EXISTS apply_role;

DELIMITER $$

-- Gives an account exactly the rights of its role (role_rights: the rows of role_grant, each
-- checked against what a right may be) and the limits of session_limit (connections at once;
-- statement time on MariaDB), changing only what differs: first every right it lacks is
-- granted, then every right on this schema it has beyond them (an older version's, or one given by
-- hand) is revoked. So the account never stands without its rights, and a role whose rows are not
-- all valid changes nothing. Statements are made only of fixed keywords and of names that exist in
-- the schema or in the server's grant tables, quoted as identifiers; nothing of role_grant is ever
-- run as SQL.
-- p_running: the operation that called this. MariaDB cannot grant or revoke EXECUTE on a routine
-- while it runs (error 1456), so that one right is left as it is; the other account operations
-- complete it (create_account grants regrant_account, and regrant_account create_account).
-- Nobody but the account that owns these procedures creates accounts or grants rights. Internal:
-- granted to nobody.
CREATE PROCEDURE apply_role(IN p_name VARCHAR(32), IN p_role VARCHAR(16), IN p_running VARCHAR(64))
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_rights LONGTEXT;
    DECLARE v_statements LONGTEXT;
    IF is_account_name(p_name) = 0 THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: an account name is 1 to 32 letters, digits, dots, dashes or underscores';
    END IF;
    CALL role_rights(p_role, v_rights);
    CALL run_account_statement(CONCAT('ALTER USER ', QUOTE(p_name), '@''%'' WITH MAX_USER_CONNECTIONS ',
        (SELECT CAST(max_user_connections AS UNSIGNED) FROM session_limit WHERE id = 1),
        IF(VERSION() LIKE '%MariaDB%',
           CONCAT(' MAX_STATEMENT_TIME ', (SELECT CAST(max_statement_seconds AS UNSIGNED) FROM session_limit WHERE id = 1)), ''),
        sign_in_limit()));
    CALL missing_rights(p_name, v_rights, p_running, v_statements);
    CALL run_account_statements(v_statements, 0);
    CALL extra_rights(p_name, v_rights, p_running, v_statements);
    CALL run_account_statements(v_statements, 1);
    -- revoking a table's right takes its columns' rights of the same kind with it: give back any
    CALL missing_rights(p_name, v_rights, p_running, v_statements);
    CALL run_account_statements(v_statements, 0);
END$$

DELIMITER ;
