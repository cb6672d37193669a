DROP PROCEDURE IF EXISTS drop_account;

DELIMITER $$

-- An admin drops a person's database account. The person stays in the newsroom (their editor row,
-- their history); only a person's account is touched, never root or another application's.
CREATE PROCEDURE drop_account(IN p_name VARCHAR(64))
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_actor VARCHAR(64);
    DECLARE v_role VARCHAR(16);
    CALL operation_begins();
    CALL resolve_actor(NULL, 'admin', v_actor);
    CALL require_person(p_name, v_role);
    CALL run_account_statement(CONCAT('DROP USER IF EXISTS ', QUOTE(p_name), '@''%'''));
    DELETE FROM person_account WHERE name = p_name;
END$$

DELIMITER ;
