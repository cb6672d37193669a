DROP FUNCTION IF EXISTS is_account_name;

DELIMITER $$

-- 1 when p_name is 1 to 32 of A-Z a-z 0-9 _ . - (compared as bytes: no accent or case folding).
-- A loop, not REGEXP: some MySQL builds ship without the ICU data REGEXP needs.
CREATE FUNCTION is_account_name(p_name VARCHAR(64)) RETURNS INT
    DETERMINISTIC NO SQL SQL SECURITY DEFINER
BEGIN
    DECLARE v_i INT DEFAULT 1;
    IF p_name IS NULL OR CHAR_LENGTH(p_name) < 1 OR CHAR_LENGTH(p_name) > 32 THEN
        RETURN 0;
    END IF;
    WHILE v_i <= CHAR_LENGTH(p_name) DO
        IF INSTR(CAST('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-' AS BINARY),
                 CAST(SUBSTRING(p_name, v_i, 1) AS BINARY)) = 0 THEN
            RETURN 0;
        END IF;
        SET v_i = v_i + 1;
    END WHILE;
    RETURN 1;
END$$

DELIMITER ;
