DROP PROCEDURE IF EXISTS check_role_grant;

DELIMITER $$

-- Checks every row of role_grant (role_rights for each role and kind): the account operations call
-- it before they change any account, so one row that is not a right changes nothing anywhere.
-- Internal: granted to nobody.
CREATE PROCEDURE check_role_grant()
    SQL SECURITY DEFINER READS SQL DATA
BEGIN
    DECLARE v_rights LONGTEXT;
    CALL role_rights('editor', v_rights);
    CALL role_rights('supervisor', v_rights);
    CALL role_rights('admin', v_rights);
    CALL role_rights('feed_reader', v_rights);
    CALL role_rights('relay', v_rights);
END$$

DELIMITER ;
