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
    DECLARE v_refusal VARCHAR(128);
    -- no person of that name: only the account that owns the schema and these procedures may act
    -- (as an admin)
    DECLARE CONTINUE HANDLER FOR NOT FOUND
        SET v_refusal = IF(v_who = SUBSTRING_INDEX(CURRENT_USER(), '@', 1), NULL,
                           'Copydesk: this database account is not a Copydesk editor, supervisor or admin'),
            o_actor = COALESCE(p_as, v_who);
    -- One read by key that names the refusal, if any: each rule written once, and the honest call
    -- costs one test, not five (docs/benchmarks.md, "What each statement inside the routines buys").
    SELECT CASE WHEN v_who = SUBSTRING_INDEX(CURRENT_USER(), '@', 1) THEN NULL -- the owner: an admin
                WHEN e.role IS NULL THEN 'Copydesk: this database account is not a Copydesk editor, supervisor or admin'
                WHEN p_need = 'supervisor' AND e.role = 'editor' THEN 'Copydesk: only a supervisor may do this'
                WHEN p_need = 'admin' AND e.role <> 'admin' THEN 'Copydesk: only an admin may do this'
                WHEN p_as IS NOT NULL AND p_as <> v_who AND e.role <> 'admin' THEN 'Copydesk: you can act only for yourself'
           END, COALESCE(p_as, v_who)
      INTO v_refusal, o_actor
      FROM editor e WHERE e.id = v_who;
    IF v_refusal IS NOT NULL THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = v_refusal;
    END IF;
END$$

DELIMITER ;
