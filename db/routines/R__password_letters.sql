DROP FUNCTION IF EXISTS password_letters;

DELIMITER $$

-- The letters a to z of p_text, lowercased, in order; everything else left out ('Ann-2026!' gives
-- 'ann'). For password_refusal: a common word or a name stays itself with digits and signs added.
-- A loop, not REGEXP_REPLACE: some MySQL builds ship without the ICU data REGEXP needs.
CREATE FUNCTION password_letters(p_text VARCHAR(200)) RETURNS VARCHAR(200)
    DETERMINISTIC NO SQL SQL SECURITY DEFINER
BEGIN
    DECLARE v_i INT DEFAULT 1;
    DECLARE v_c VARCHAR(4);
    DECLARE v_letters VARCHAR(200) DEFAULT '';
    WHILE v_i <= CHAR_LENGTH(p_text) DO
        SET v_c = LOWER(SUBSTRING(p_text, v_i, 1));
        IF INSTR(CAST('abcdefghijklmnopqrstuvwxyz' AS BINARY), CAST(v_c AS BINARY)) > 0 THEN
            SET v_letters = CONCAT(v_letters, v_c);
        END IF;
        SET v_i = v_i + 1;
    END WHILE;
    RETURN v_letters;
END$$

DELIMITER ;
