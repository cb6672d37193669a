DROP PROCEDURE IF EXISTS run_account_statements;

DELIMITER $$

-- Runs each account statement of a JSON array (made by missing_rights or extra_rights), in order.
-- p_absent_is_fine = 1: a REVOKE of a right that is no longer there (an earlier REVOKE in the list
-- took it along, as revoking a table's right takes its columns') is passed over. Internal: granted
-- to nobody.
CREATE PROCEDURE run_account_statements(IN p_statements LONGTEXT, IN p_absent_is_fine INT)
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_i INT DEFAULT 0;
    WHILE v_i < COALESCE(JSON_LENGTH(p_statements), 0) DO
        BEGIN
            -- 1141, 1147, 1403: there is no such grant (schema, table or column, routine)
            DECLARE EXIT HANDLER FOR 1141, 1147, 1403
                BEGIN
                    IF p_absent_is_fine = 0 THEN
                        RESIGNAL;
                    END IF;
                END;
            CALL run_account_statement(JSON_UNQUOTE(JSON_EXTRACT(p_statements, CONCAT('$[', v_i, ']'))));
        END;
        SET v_i = v_i + 1;
    END WHILE;
END$$

DELIMITER ;
