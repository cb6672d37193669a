DROP PROCEDURE IF EXISTS missing_rights;

DELIMITER $$

-- The GRANT statements that give account p_name the rights p_rights (role_rights' checked list)
-- it does not have yet on this schema, as a JSON array (NULL when none): EXECUTE on each
-- operation but p_running, table rights, and SELECT on each column of a column right. Made of
-- fixed keywords and of names that exist in the schema, quoted as identifiers. Internal: apply_role
-- calls it.
CREATE PROCEDURE missing_rights(IN p_name VARCHAR(32), IN p_rights LONGTEXT, IN p_running VARCHAR(64), OUT o_statements LONGTEXT)
    SQL SECURITY DEFINER READS SQL DATA
BEGIN
    DECLARE v_account VARCHAR(100) DEFAULT CONCAT(QUOTE(p_name), '@''%''');
    -- typed as the grant tables' user column: compared with p_name (the schema's collation) the server
    -- converted the column and read every account's rows, so each account created cost more than the last
    DECLARE v_user VARCHAR(128) CHARACTER SET utf8mb3 COLLATE utf8mb3_bin DEFAULT p_name;
    DECLARE v_db VARCHAR(200) DEFAULT CONCAT('`', REPLACE(DATABASE(), '`', '``'), '`');
    SELECT JSON_ARRAYAGG(s.statement) INTO o_statements FROM (
        SELECT CONVERT(CONCAT('GRANT EXECUTE ON PROCEDURE ', v_db, '.`', REPLACE(r.object, '`', '``'), '` TO ', v_account) USING utf8mb4) COLLATE utf8mb4_bin AS statement
          FROM JSON_TABLE(p_rights, '$[*]' COLUMNS (privilege VARCHAR(16) PATH '$[0]', object VARCHAR(64) PATH '$[1]',
                                                    cols VARCHAR(200) PATH '$[2]')) r
         WHERE r.privilege = 'EXECUTE' AND BINARY r.object <> BINARY COALESCE(p_running, '')
           AND NOT EXISTS (SELECT 1 FROM mysql.procs_priv p WHERE p.user = v_user AND p.host = '%' AND p.db = DATABASE()
                              AND p.routine_name = r.object AND p.routine_type = 'PROCEDURE'
                              AND FIND_IN_SET('Execute', p.proc_priv) > 0)
        UNION ALL
        SELECT CONVERT(CONCAT('GRANT ', k.keyword, ' ON ', v_db, '.`', REPLACE(r.object, '`', '``'), '` TO ', v_account) USING utf8mb4) COLLATE utf8mb4_bin
          FROM JSON_TABLE(p_rights, '$[*]' COLUMNS (privilege VARCHAR(16) PATH '$[0]', object VARCHAR(64) PATH '$[1]',
                                                    cols VARCHAR(200) PATH '$[2]')) r
          JOIN (SELECT 'SELECT' AS keyword, 'Select' AS setname UNION ALL SELECT 'INSERT', 'Insert'
                UNION ALL SELECT 'UPDATE', 'Update' UNION ALL SELECT 'DELETE', 'Delete') k ON k.keyword = r.privilege
         WHERE r.cols = ''
           AND NOT EXISTS (SELECT 1 FROM mysql.tables_priv t WHERE t.user = v_user AND t.host = '%' AND t.db = DATABASE()
                              AND t.table_name = r.object AND FIND_IN_SET(k.setname, t.table_priv) > 0)
        UNION ALL
        SELECT CONVERT(CONCAT('GRANT SELECT (`', REPLACE(c.column_name, '`', '``'), '`) ON ', v_db, '.`', REPLACE(r.object, '`', '``'), '` TO ',
                      v_account) USING utf8mb4) COLLATE utf8mb4_bin
          FROM JSON_TABLE(p_rights, '$[*]' COLUMNS (privilege VARCHAR(16) PATH '$[0]', object VARCHAR(64) PATH '$[1]',
                                                    cols VARCHAR(200) PATH '$[2]')) r
          -- the columns role_rights checked, split (information_schema.columns opens every table of the schema)
          JOIN JSON_TABLE(CONCAT('["', REPLACE(r.cols, ',', '","'), '"]'), '$[*]' COLUMNS (column_name VARCHAR(64) PATH '$')) c
         WHERE r.privilege = 'SELECT' AND r.cols <> ''
           AND NOT EXISTS (SELECT 1 FROM mysql.columns_priv p WHERE p.user = v_user AND p.host = '%' AND p.db = DATABASE()
                              AND p.table_name = r.object AND p.column_name = c.column_name
                              AND FIND_IN_SET('Select', p.column_priv) > 0)) s;
END$$

DELIMITER ;
