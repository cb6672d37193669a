DROP PROCEDURE IF EXISTS extra_rights;

DELIMITER $$

-- The REVOKE statements that take from account p_name what it holds on this schema beyond the
-- rights p_rights (role_rights' checked list), as a JSON array (NULL when none): schema-wide
-- rights (an older version gave admins ALL on the schema; a grant's database is a LIKE pattern,
-- so every one that covers this schema), any table, column or routine right that
-- is not one of p_rights (never p_running's). Made of fixed keywords and of names from the server's
-- grant tables, quoted as identifiers. Internal: apply_role calls it.
CREATE PROCEDURE extra_rights(IN p_name VARCHAR(32), IN p_rights LONGTEXT, IN p_running VARCHAR(64), OUT o_statements LONGTEXT)
    SQL SECURITY DEFINER READS SQL DATA
BEGIN
    DECLARE v_account VARCHAR(100) DEFAULT CONCAT(QUOTE(p_name), '@''%''');
    -- typed as the grant tables' user column: compared with p_name (the schema's collation) the server
    -- converted the column and read every account's rows, so each account created cost more than the last
    DECLARE v_user VARCHAR(128) CHARACTER SET utf8mb3 COLLATE utf8mb3_bin DEFAULT p_name;
    DECLARE v_db VARCHAR(200) DEFAULT CONCAT('`', REPLACE(DATABASE(), '`', '``'), '`');
    SELECT JSON_ARRAYAGG(s.statement) INTO o_statements FROM (
        SELECT CONVERT(CONCAT('REVOKE ALL PRIVILEGES ON `', REPLACE(d.db, '`', '``'), '`.* FROM ', v_account) USING utf8mb4) COLLATE utf8mb4_bin AS statement
          FROM mysql.db d
         WHERE d.user = v_user AND d.host = '%' AND DATABASE() LIKE d.db
        UNION ALL
        SELECT CONVERT(CONCAT('REVOKE GRANT OPTION ON `', REPLACE(d.db, '`', '``'), '`.* FROM ', v_account) USING utf8mb4) COLLATE utf8mb4_bin
          FROM mysql.db d
         WHERE d.user = v_user AND d.host = '%' AND DATABASE() LIKE d.db
           AND d.grant_priv = 'Y'
        UNION ALL
        SELECT CONVERT(CONCAT('REVOKE ', k.keyword, ' ON ', v_db, '.`', REPLACE(t.table_name, '`', '``'), '` FROM ', v_account) USING utf8mb4) COLLATE utf8mb4_bin
          FROM mysql.tables_priv t
          JOIN (SELECT 'SELECT' AS keyword, 'Select' AS setname UNION ALL SELECT 'INSERT', 'Insert'
                UNION ALL SELECT 'UPDATE', 'Update' UNION ALL SELECT 'DELETE', 'Delete' UNION ALL SELECT 'CREATE', 'Create'
                UNION ALL SELECT 'DROP', 'Drop' UNION ALL SELECT 'GRANT OPTION', 'Grant' UNION ALL SELECT 'REFERENCES', 'References'
                UNION ALL SELECT 'INDEX', 'Index' UNION ALL SELECT 'ALTER', 'Alter' UNION ALL SELECT 'CREATE VIEW', 'Create View'
                UNION ALL SELECT 'SHOW VIEW', 'Show view' UNION ALL SELECT 'TRIGGER', 'Trigger'
                UNION ALL SELECT 'DELETE HISTORY', 'Delete versioning rows') k ON FIND_IN_SET(k.setname, t.table_priv) > 0
         WHERE t.user = v_user AND t.host = '%' AND t.db = DATABASE()
           AND NOT EXISTS (SELECT 1 FROM JSON_TABLE(p_rights, '$[*]' COLUMNS (privilege VARCHAR(16) PATH '$[0]',
                                                       object VARCHAR(64) PATH '$[1]', cols VARCHAR(200) PATH '$[2]')) r
                            WHERE r.privilege = k.keyword AND BINARY r.object = BINARY t.table_name AND r.cols = '')
        UNION ALL
        SELECT CONVERT(CONCAT('REVOKE ', k.keyword, ' (`', REPLACE(c.column_name, '`', '``'), '`) ON ', v_db, '.`',
                      REPLACE(c.table_name, '`', '``'), '` FROM ', v_account) USING utf8mb4) COLLATE utf8mb4_bin
          FROM mysql.columns_priv c
          JOIN (SELECT 'SELECT' AS keyword, 'Select' AS setname UNION ALL SELECT 'INSERT', 'Insert'
                UNION ALL SELECT 'UPDATE', 'Update' UNION ALL SELECT 'REFERENCES', 'References') k
            ON FIND_IN_SET(k.setname, c.column_priv) > 0
         WHERE c.user = v_user AND c.host = '%' AND c.db = DATABASE()
           AND NOT EXISTS (SELECT 1 FROM JSON_TABLE(p_rights, '$[*]' COLUMNS (privilege VARCHAR(16) PATH '$[0]',
                                                       object VARCHAR(64) PATH '$[1]', cols VARCHAR(200) PATH '$[2]')) r
                            WHERE k.keyword = 'SELECT' AND r.privilege = 'SELECT' AND BINARY r.object = BINARY c.table_name
                              AND FIND_IN_SET(c.column_name, r.cols) > 0)
        UNION ALL
        SELECT CONVERT(CONCAT('REVOKE ', k.keyword, ' ON ', p.routine_type, ' ', v_db, '.`', REPLACE(p.routine_name, '`', '``'), '` FROM ',
                      v_account) USING utf8mb4) COLLATE utf8mb4_bin
          FROM mysql.procs_priv p
          JOIN (SELECT 'EXECUTE' AS keyword, 'Execute' AS setname UNION ALL SELECT 'ALTER ROUTINE', 'Alter Routine'
                UNION ALL SELECT 'GRANT OPTION', 'Grant') k ON FIND_IN_SET(k.setname, p.proc_priv) > 0
         WHERE p.user = v_user AND p.host = '%' AND p.db = DATABASE() AND p.routine_name <> COALESCE(p_running, '')
           AND NOT EXISTS (SELECT 1 FROM JSON_TABLE(p_rights, '$[*]' COLUMNS (privilege VARCHAR(16) PATH '$[0]',
                                                       object VARCHAR(64) PATH '$[1]', cols VARCHAR(200) PATH '$[2]')) r
                            WHERE k.keyword = 'EXECUTE' AND p.routine_type = 'PROCEDURE' AND r.privilege = 'EXECUTE'
                              AND r.object = p.routine_name)) s;
END$$

DELIMITER ;
