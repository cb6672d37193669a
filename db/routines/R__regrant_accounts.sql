DROP PROCEDURE IF EXISTS regrant_accounts;

DELIMITER $$

-- Gives every existing account of a person or of another system the rights of its role or kind as
-- this version defines them (after an upgrade, a change of role_grant, or a role change). Dropping
-- a routine drops its EXECUTE grants, so this runs at the end of every migration that changed
-- something. All or nothing for the rows of role_grant: every role's rights are checked before any
-- account is changed, and a row that is not a right changes nothing. Accounts that hold rights
-- beyond this schema (the server's own) are not touched. The owner's: granted to nobody.
-- Result: how many accounts.
CREATE PROCEDURE regrant_accounts()
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_actor VARCHAR(64);
    DECLARE v_name VARCHAR(64);
    DECLARE v_role VARCHAR(16);
    DECLARE v_count INT DEFAULT 0;
    DECLARE v_done INT DEFAULT 0;
    DECLARE people CURSOR FOR SELECT a.name, a.role FROM managed_account a;
    DECLARE CONTINUE HANDLER FOR NOT FOUND SET v_done = 1;
    CALL operation_begins();
    CALL resolve_actor(NULL, 'admin', v_actor);
    CALL check_role_grant();
    OPEN people;
    each_person: LOOP
        FETCH people INTO v_name, v_role;
        IF v_done = 1 THEN LEAVE each_person; END IF;
        CALL apply_role(v_name, v_role, 'regrant_accounts');
        SET v_count = v_count + 1;
    END LOOP;
    CLOSE people;
    SELECT v_count AS regranted;
END$$

DELIMITER ;
