DROP PROCEDURE IF EXISTS apply_role;

DELIMITER $$

-- Gives an account exactly the rights of its role, as the rows of role_grant list them (the one
-- place that says what each role may do): a role has its own rows and those of the roles below it
-- (an editor's rights are a supervisor's and an admin's too, a supervisor's an admin's); admins
-- also own the schema; feed_reader and relay, other systems' kinds, have only their own rows.
-- Everything the account had before is revoked first. Nobody but the account that owns these
-- procedures creates accounts or grants rights. Not granted to anyone.
CREATE PROCEDURE apply_role(IN p_name VARCHAR(32), IN p_role VARCHAR(16))
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_account VARCHAR(100) DEFAULT CONCAT(QUOTE(p_name), '@''%''');
    DECLARE v_db VARCHAR(100) DEFAULT CONCAT('`', DATABASE(), '`.');
    DECLARE v_privilege VARCHAR(16);
    DECLARE v_object VARCHAR(64);
    DECLARE v_columns VARCHAR(200);
    DECLARE v_done INT DEFAULT 0;
    DECLARE rights CURSOR FOR
        SELECT privilege, object_name, columns FROM role_grant
         WHERE role = p_role
            OR (role = 'editor' AND p_role IN ('supervisor', 'admin'))
            OR (role = 'supervisor' AND p_role = 'admin')
         ORDER BY privilege, object_name, role;
    DECLARE CONTINUE HANDLER FOR NOT FOUND SET v_done = 1;
    CALL run_account_statement(CONCAT('REVOKE ALL PRIVILEGES, GRANT OPTION FROM ', v_account));
    OPEN rights;
    each_right: LOOP
        FETCH rights INTO v_privilege, v_object, v_columns;
        IF v_done = 1 THEN LEAVE each_right; END IF;
        CALL run_account_statement(CONCAT('GRANT ', v_privilege, COALESCE(CONCAT(' (', v_columns, ')'), ''), ' ON ',
                                          IF(v_privilege = 'EXECUTE', 'PROCEDURE ', ''), v_db, '`', v_object, '` TO ',
                                          v_account));
    END LOOP;
    CLOSE rights;
    IF p_role = 'admin' THEN
        -- the schema (migrations, purge), but no account rights beyond the operations
        CALL run_account_statement(CONCAT('GRANT ALL PRIVILEGES ON ', v_db, '* TO ', v_account));
    END IF;
END$$

DELIMITER ;
