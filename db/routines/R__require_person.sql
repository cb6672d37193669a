DROP PROCEDURE IF EXISTS require_person;

DELIMITER $$

-- Checks that p_name is a person of the newsroom (not root, not another application's account: an
-- account that is another system's of this newsroom, or that holds rights on another database of
-- this server, is not a person's to create, change or drop).
CREATE PROCEDURE require_person(IN p_name VARCHAR(64), OUT o_role VARCHAR(16))
    SQL SECURITY DEFINER READS SQL DATA
BEGIN
    DECLARE v_other_rights INT;
    IF is_account_name(p_name) = 0 THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: an account name is 1 to 32 letters, digits, dots, dashes or underscores';
    END IF;
    SELECT (SELECT role FROM editor WHERE id = p_name) INTO o_role;
    IF o_role IS NULL THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: accounts are only for people of the newsroom; add the person first';
    END IF;
    IF p_name = SUBSTRING_INDEX(CURRENT_USER(), '@', 1) THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: that is the account that owns the database; it is not managed here';
    END IF;
    -- an admin may add a person called root; the server's own accounts stay out of reach anyway
    IF p_name IN ('root', 'mysql', 'mariadb.sys', 'mysql.sys', 'mysql.session', 'mysql.infoschema', 'PUBLIC')
            OR EXISTS (SELECT 1 FROM mysql.user WHERE user = p_name
                       AND (host <> '%' OR Super_priv = 'Y' OR Create_user_priv = 'Y' OR Grant_priv = 'Y'
                            OR Process_priv = 'Y' OR File_priv = 'Y' OR Shutdown_priv = 'Y' OR Reload_priv = 'Y')) THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: that is one of the server''s own accounts; it is not managed here';
    END IF;
    SELECT EXISTS (SELECT 1 FROM integration_account WHERE name = p_name)
            -- (a grant's database is a LIKE pattern: it covers each database whose name it matches;
            -- the grant tables' collations differ, so names are compared as utf8mb4, case and all)
            OR EXISTS (SELECT 1 FROM (SELECT CONVERT(db USING utf8mb4) COLLATE utf8mb4_bin AS db FROM mysql.db WHERE user = p_name
                                      UNION SELECT CONVERT(db USING utf8mb4) COLLATE utf8mb4_bin FROM mysql.tables_priv WHERE user = p_name
                                      UNION SELECT CONVERT(db USING utf8mb4) COLLATE utf8mb4_bin FROM mysql.columns_priv WHERE user = p_name
                                      UNION SELECT CONVERT(db USING utf8mb4) COLLATE utf8mb4_bin FROM mysql.procs_priv WHERE user = p_name) g
                        JOIN information_schema.schemata s ON CONVERT(s.schema_name USING utf8mb4) COLLATE utf8mb4_bin LIKE g.db
                       WHERE CONVERT(s.schema_name USING utf8mb4) COLLATE utf8mb4_bin
                             <> CONVERT(DATABASE() USING utf8mb4) COLLATE utf8mb4_bin) INTO v_other_rights;
    IF v_other_rights THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: that account belongs to another application of this server; it is not managed here';
    END IF;
END$$

DELIMITER ;
