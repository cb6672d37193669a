DROP PROCEDURE IF EXISTS resolve_actor;

DELIMITER $$

-- Who a call acts for, after checking the caller may act as them and has the role needed.
-- The caller is USER(), the signed-in account, which the client cannot set (inside a definer
-- routine CURRENT_USER() is the definer: the account that owns these routines, an admin here).
-- p_as: who the call acts for; NULL means the signed-in person. Only administrators (role admin,
-- or the owning account) may name someone else; the command line and the tests use it on the
-- embedded server. Not granted to anyone: only the operations call it.
CREATE PROCEDURE resolve_actor(IN p_as VARCHAR(64), IN p_need VARCHAR(16), OUT o_actor VARCHAR(64))
    SQL SECURITY DEFINER READS SQL DATA
BEGIN
    DECLARE v_who VARCHAR(64) DEFAULT SUBSTRING_INDEX(USER(), '@', 1);
    DECLARE v_role VARCHAR(16) DEFAULT NULL;
    SELECT (SELECT role FROM editor WHERE id = v_who) INTO v_role;
    IF v_who = SUBSTRING_INDEX(CURRENT_USER(), '@', 1) THEN
        SET v_role = 'admin'; -- the account that owns the schema and these procedures
    END IF;
    IF v_role IS NULL THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: this database account is not a Copydesk editor, supervisor or admin';
    END IF;
    IF p_need = 'supervisor' AND v_role = 'editor' THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: only a supervisor may do this';
    END IF;
    IF p_need = 'admin' AND v_role <> 'admin' THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: only an admin may do this';
    END IF;
    IF p_as IS NOT NULL AND p_as <> v_who AND v_role <> 'admin' THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: you can act only for yourself';
    END IF;
    SET o_actor = COALESCE(p_as, v_who);
END$$

DELIMITER ;
