DROP PROCEDURE IF EXISTS role_rights;

DELIMITER $$

-- The rights of a role (or of another system's kind) as the rows of role_grant list them, each
-- checked against what a right may be before it is used; refused, with nothing changed anywhere,
-- when one row is not. A role has its own rows and those of the roles below it (an editor's rights
-- are a supervisor's and an admin's too, a supervisor's an admin's); feed_reader and relay have
-- only their own. A right is:
--   SELECT on a table or view of this schema, or on some of its columns (each a column of it);
--   EXECUTE on a procedure of this schema that is an operation: one that begins by calling
--     operation_begins (the routines it uses inside are never granted: run_account_statement,
--     apply_role, log_event, ...);
--   for admins only, INSERT, UPDATE or DELETE on the people and desks tables (desk, editor,
--     editor_desk) and DELETE on the history and the outbox (lease_event, outcome_event: purge).
-- No other privilege, object or role is a right, whatever a row says: rights are values checked
-- against this list, never SQL. o_rights: a JSON array of [privilege, object, columns], the
-- columns the checked names joined by commas ('' for the whole table or an operation).
-- Internal: granted to nobody.
CREATE PROCEDURE role_rights(IN p_role VARCHAR(16), OUT o_rights LONGTEXT)
    SQL SECURITY DEFINER MODIFIES SQL DATA
body: BEGIN
    DECLARE v_role VARCHAR(16);
    DECLARE v_privilege VARCHAR(64);
    DECLARE v_object VARCHAR(64);
    DECLARE v_columns VARCHAR(200);
    DECLARE v_column VARCHAR(200);
    DECLARE v_rest VARCHAR(200);
    DECLARE v_names VARCHAR(200);
    DECLARE v_rows LONGTEXT;
    DECLARE v_i INT DEFAULT 0;
    DECLARE v_fingerprint VARCHAR(200);
    DECLARE v_checked LONGTEXT;
    IF p_role IS NULL OR p_role NOT IN ('editor', 'supervisor', 'admin', 'feed_reader', 'relay') THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: there is no such role';
    END IF;
    -- What the checks below depend on: role_grant's rows (a count and a 64-bit digest of them, in any
    -- order) and the schema's routines (created again by every migration that changes one). Unchanged
    -- since the last check of this role: its rights as they were then (role_rights_checked).
    SELECT CONCAT_WS(':', (SELECT COUNT(*) FROM role_grant),
                     (SELECT COALESCE(BIT_XOR(CAST(CONV(LEFT(MD5(CONCAT_WS(0x1f, role, privilege, object_name, COALESCE(columns, 0x00))),
                                                             16), 16, 10) AS UNSIGNED)), 0) FROM role_grant),
                     (SELECT CONCAT(COUNT(*), '/', COALESCE(MAX(last_altered), '')) FROM information_schema.routines
                       WHERE routine_schema = DATABASE()))
      INTO v_fingerprint;
    SELECT MAX(rights) INTO v_checked FROM role_rights_checked WHERE role = p_role AND fingerprint = v_fingerprint;
    IF v_checked IS NOT NULL THEN
        SET o_rights = v_checked;
        LEAVE body;
    END IF;
    SET o_rights = '[]';
    -- the rows as one JSON value, not a cursor: MariaDB 11.4.5 fails (1064) to reopen a cached
    -- routine's cursor over a table altered since, as a migration or a test alters role_grant
    SELECT JSON_ARRAYAGG(JSON_ARRAY(g.role, g.privilege, g.object_name, g.columns)) INTO v_rows
      FROM role_grant g
     WHERE g.role = p_role
        OR (g.role = 'editor' AND p_role IN ('supervisor', 'admin'))
        OR (g.role = 'supervisor' AND p_role = 'admin');
    WHILE v_i < COALESCE(JSON_LENGTH(v_rows), 0) DO
        SET v_role = JSON_UNQUOTE(JSON_EXTRACT(v_rows, CONCAT('$[', v_i, '][0]')));
        SET v_privilege = JSON_UNQUOTE(JSON_EXTRACT(v_rows, CONCAT('$[', v_i, '][1]')));
        SET v_object = JSON_UNQUOTE(JSON_EXTRACT(v_rows, CONCAT('$[', v_i, '][2]')));
        SET v_columns = IF(JSON_TYPE(JSON_EXTRACT(v_rows, CONCAT('$[', v_i, '][3]'))) = 'NULL', NULL,
                           JSON_UNQUOTE(JSON_EXTRACT(v_rows, CONCAT('$[', v_i, '][3]'))));
        SET v_i = v_i + 1;
        SET v_names = NULL;
        IF BINARY v_privilege = 'SELECT' THEN
            IF NOT EXISTS (SELECT 1 FROM information_schema.tables
                            WHERE table_schema = DATABASE() AND BINARY table_name = v_object) THEN
                SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: role_grant names a table or view this schema does not have';
            END IF;
            IF v_columns IS NOT NULL THEN
                SET v_names = '';
                SET v_rest = v_columns;
                WHILE v_rest IS NOT NULL DO
                    SET v_column = TRIM(SUBSTRING_INDEX(v_rest, ',', 1));
                    SET v_rest = IF(LOCATE(',', v_rest) > 0, SUBSTRING(v_rest, LOCATE(',', v_rest) + 1), NULL);
                    IF NOT EXISTS (SELECT 1 FROM information_schema.columns WHERE table_schema = DATABASE()
                                      AND BINARY table_name = v_object AND BINARY column_name = v_column) THEN
                        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: role_grant names a column its table does not have';
                    END IF;
                    SET v_names = CONCAT(v_names, IF(v_names = '', '', ','), v_column);
                END WHILE;
            END IF;
        ELSEIF BINARY v_privilege = 'EXECUTE' THEN
            IF NOT EXISTS (SELECT 1 FROM information_schema.routines
                            WHERE routine_schema = DATABASE() AND routine_type = 'PROCEDURE' AND BINARY routine_name = v_object
                              AND LOCATE('CALL operation_begins();', routine_definition) > 0) THEN
                SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: role_grant names a procedure that is not one of the operations';
            END IF;
        ELSEIF BINARY v_privilege IN ('INSERT', 'UPDATE', 'DELETE') THEN
            IF v_role <> 'admin' OR v_columns IS NOT NULL
                    OR NOT (BINARY v_object IN ('desk', 'editor', 'editor_desk')
                            OR (BINARY v_privilege = 'DELETE' AND BINARY v_object IN ('lease_event', 'outcome_event'))) THEN
                SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: role_grant gives a table write that no role may have';
            END IF;
        ELSE
            SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: role_grant names a privilege that is not a right';
        END IF;
        SET o_rights = JSON_ARRAY_APPEND(o_rights, '$', JSON_ARRAY(v_privilege, v_object, COALESCE(v_names, '')));
    END WHILE;
    INSERT INTO role_rights_checked (role, fingerprint, rights, checked_at) VALUES (p_role, v_fingerprint, o_rights, server_utc_now())
    ON DUPLICATE KEY UPDATE fingerprint = VALUES(fingerprint), rights = VALUES(rights), checked_at = VALUES(checked_at);
END$$

DELIMITER ;
