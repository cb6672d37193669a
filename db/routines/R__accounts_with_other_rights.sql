DROP PROCEDURE IF EXISTS accounts_with_other_rights;

DELIMITER $$

-- The managed accounts whose rights on this schema differ from those of their role (one lacking,
-- or one beyond them): what AccountAdministration.everyAccountHasCurrentGrants checks before it
-- regrants. The owner's: granted to nobody. Result: name, role.
CREATE PROCEDURE accounts_with_other_rights()
    SQL SECURITY DEFINER READS SQL DATA
BEGIN
    DECLARE v_name VARCHAR(64);
    DECLARE v_role VARCHAR(16);
    DECLARE v_rights LONGTEXT;
    DECLARE v_missing LONGTEXT;
    DECLARE v_extra LONGTEXT;
    DECLARE v_out LONGTEXT DEFAULT '[]';
    DECLARE v_done INT DEFAULT 0;
    DECLARE accounts CURSOR FOR SELECT name, role FROM managed_account;
    DECLARE CONTINUE HANDLER FOR NOT FOUND SET v_done = 1;
    OPEN accounts;
    each_account: LOOP
        FETCH accounts INTO v_name, v_role;
        IF v_done = 1 THEN LEAVE each_account; END IF;
        CALL role_rights(v_role, v_rights);
        CALL missing_rights(v_name, v_rights, NULL, v_missing);
        CALL extra_rights(v_name, v_rights, NULL, v_extra);
        IF v_missing IS NOT NULL OR v_extra IS NOT NULL THEN
            SET v_out = JSON_ARRAY_APPEND(v_out, '$', JSON_ARRAY(v_name, v_role));
        END IF;
    END LOOP;
    CLOSE accounts;
    SELECT a.name, a.role FROM JSON_TABLE(v_out, '$[*]' COLUMNS (name VARCHAR(64) PATH '$[0]', role VARCHAR(16) PATH '$[1]')) a;
END$$

DELIMITER ;
