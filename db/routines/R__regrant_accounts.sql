DROP PROCEDURE IF EXISTS regrant_accounts;

DELIMITER $$

-- Gives every existing account of a person or of another system the rights of its role or kind as
-- this version defines them (after an upgrade, a change of role_grant, or a role change). Dropping
-- a routine drops its EXECUTE grants, so this runs at the end of every migration that changed
-- something. Result: how many accounts.
CREATE PROCEDURE regrant_accounts()
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_actor VARCHAR(64);
    DECLARE v_name VARCHAR(64);
    DECLARE v_role VARCHAR(16);
    DECLARE v_count INT DEFAULT 0;
    DECLARE v_done INT DEFAULT 0;
    DECLARE people CURSOR FOR
        SELECT e.id, e.role FROM editor e JOIN mysql.user u ON u.user = e.id AND u.host = '%'
         WHERE is_account_name(e.id) = 1 AND e.id <> SUBSTRING_INDEX(CURRENT_USER(), '@', 1)
        -- other systems' accounts too
        UNION ALL
        SELECT i.name, i.kind FROM integration_account i JOIN mysql.user u ON u.user = i.name AND u.host = '%';
    DECLARE CONTINUE HANDLER FOR NOT FOUND SET v_done = 1;
    CALL resolve_actor(NULL, 'admin', v_actor);
    OPEN people;
    each_person: LOOP
        FETCH people INTO v_name, v_role;
        IF v_done = 1 THEN LEAVE each_person; END IF;
        CALL apply_role(v_name, v_role);
        SET v_count = v_count + 1;
    END LOOP;
    CLOSE people;
    SELECT v_count AS regranted;
END$$

DELIMITER ;
