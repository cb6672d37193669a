DROP FUNCTION IF EXISTS plain_text;

DELIMITER $$

-- Text a person or another system typed, made safe for every tool that shows it later (a terminal,
-- a dashboard, a log, a receiver's system): control characters (terminal escapes, a carriage return
-- that overwrites a line, a line break that forges a second history line), DEL and the C1 controls,
-- and the invisible characters that reorder text (bidirectional marks, embeddings, overrides and
-- isolates; line and paragraph separators) become spaces; with p_lines = 1 line feeds and tabs stay
-- (notes have paragraphs) and a carriage return before a line feed goes. At most p_max characters,
-- cut with "...". One statement of nested REPLACEs: every statement of a stored function costs
-- (a loop of statements cost 0.7 ms a call; twelve statements of a few REPLACEs each, a tenth of
-- a decision's time in the routines), and every decision and history write calls this.
-- The characters are written as their UTF-8 bytes (U+0080 is C2 80): a literal costs nothing to
-- evaluate, a CHAR(… USING utf8mb4) is converted at every call (half this function's time).
-- Internal: granted to nobody.
CREATE FUNCTION plain_text(p_text LONGTEXT, p_max INT, p_lines INT) RETURNS LONGTEXT
    DETERMINISTIC NO SQL SQL SECURITY DEFINER
BEGIN
    -- (p_text is the working copy: a variable of its own, a check for NULL and a flag were three
    -- statements more at every call; NULL passes through every step as NULL)
    SET p_text = IF(p_lines = 1, REPLACE(p_text, CONCAT(_utf8mb4 X'0D', _utf8mb4 X'0A'), _utf8mb4 X'0A'),
                    REPLACE(REPLACE(p_text, _utf8mb4 X'09', ' '), _utf8mb4 X'0A', ' '));
    -- MariaDB: whether the text now holds any of the characters below (nearly all text holds none),
    -- by one regular expression instead of 77 passes over it (a 1,000-character note: 20 against
    -- 250 µs a call). The class is written with the characters themselves, no backslash, so no
    -- sql_mode changes it; compared byte for byte (the database's collation and the literals'
    -- differ, and a case-insensitive match has nothing to fold here). MySQL skips this (its REGEXP
    -- needs ICU data, which some builds lack) and replaces.
    IF TRUE /*M!100400 AND p_text COLLATE utf8mb4_bin REGEXP CONCAT('[', _utf8mb4 X'00', '-', _utf8mb4 X'08',
            _utf8mb4 X'0B', '-', _utf8mb4 X'1F', _utf8mb4 X'7F', '-', _utf8mb4 X'C29F', _utf8mb4 X'D89C', _utf8mb4 X'E2808E',
            _utf8mb4 X'E2808F', _utf8mb4 X'E280A8', '-', _utf8mb4 X'E280AE', _utf8mb4 X'E281A6', '-', _utf8mb4 X'E281A9', ']')
            COLLATE utf8mb4_bin */ THEN
        SET p_text = REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(
            REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(
            REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(
            REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(
            REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(
                p_text,
                -- C0 controls but tab and line feed
                _utf8mb4 X'00', ' '), _utf8mb4 X'01', ' '), _utf8mb4 X'02', ' '), _utf8mb4 X'03', ' '), _utf8mb4 X'04', ' '),
                _utf8mb4 X'05', ' '), _utf8mb4 X'06', ' '), _utf8mb4 X'07', ' '), _utf8mb4 X'08', ' '), _utf8mb4 X'0B', ' '),
                _utf8mb4 X'0C', ' '), _utf8mb4 X'0D', ' '), _utf8mb4 X'0E', ' '), _utf8mb4 X'0F', ' '), _utf8mb4 X'10', ' '),
                _utf8mb4 X'11', ' '), _utf8mb4 X'12', ' '), _utf8mb4 X'13', ' '), _utf8mb4 X'14', ' '), _utf8mb4 X'15', ' '),
                _utf8mb4 X'16', ' '), _utf8mb4 X'17', ' '), _utf8mb4 X'18', ' '), _utf8mb4 X'19', ' '), _utf8mb4 X'1A', ' '),
                _utf8mb4 X'1B', ' '), _utf8mb4 X'1C', ' '), _utf8mb4 X'1D', ' '), _utf8mb4 X'1E', ' '), _utf8mb4 X'1F', ' '),
                -- DEL and the C1 controls (U+0080 to U+009F)
                _utf8mb4 X'7F', ' '), _utf8mb4 X'C280', ' '), _utf8mb4 X'C281', ' '), _utf8mb4 X'C282', ' '), _utf8mb4 X'C283', ' '),
                _utf8mb4 X'C284', ' '), _utf8mb4 X'C285', ' '), _utf8mb4 X'C286', ' '), _utf8mb4 X'C287', ' '), _utf8mb4 X'C288', ' '),
                _utf8mb4 X'C289', ' '), _utf8mb4 X'C28A', ' '), _utf8mb4 X'C28B', ' '), _utf8mb4 X'C28C', ' '), _utf8mb4 X'C28D', ' '),
                _utf8mb4 X'C28E', ' '), _utf8mb4 X'C28F', ' '), _utf8mb4 X'C290', ' '), _utf8mb4 X'C291', ' '), _utf8mb4 X'C292', ' '),
                _utf8mb4 X'C293', ' '), _utf8mb4 X'C294', ' '), _utf8mb4 X'C295', ' '), _utf8mb4 X'C296', ' '), _utf8mb4 X'C297', ' '),
                _utf8mb4 X'C298', ' '), _utf8mb4 X'C299', ' '), _utf8mb4 X'C29A', ' '), _utf8mb4 X'C29B', ' '), _utf8mb4 X'C29C', ' '),
                _utf8mb4 X'C29D', ' '), _utf8mb4 X'C29E', ' '), _utf8mb4 X'C29F', ' '),
                -- bidirectional marks, embeddings, overrides and isolates; line and paragraph separators
                _utf8mb4 X'D89C', ' '), _utf8mb4 X'E2808E', ' '), _utf8mb4 X'E2808F', ' '), _utf8mb4 X'E280A8', ' '),
                _utf8mb4 X'E280A9', ' '), _utf8mb4 X'E280AA', ' '), _utf8mb4 X'E280AB', ' '), _utf8mb4 X'E280AC', ' '),
                _utf8mb4 X'E280AD', ' '), _utf8mb4 X'E280AE', ' '), _utf8mb4 X'E281A6', ' '), _utf8mb4 X'E281A7', ' '),
                _utf8mb4 X'E281A8', ' '), _utf8mb4 X'E281A9', ' ');
    END IF;
    RETURN IF(CHAR_LENGTH(p_text) > p_max, CONCAT(LEFT(p_text, GREATEST(0, p_max - 3)), '...'), p_text);
END$$

DELIMITER ;
