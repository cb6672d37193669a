DROP FUNCTION IF EXISTS event_detail;

DELIMITER $$

-- A history row's detail: at most 2,000 characters (the column's size), cut with "...". One place
-- for log_event and the operations that write several history rows in one INSERT. Internal:
-- granted to nobody.
CREATE FUNCTION event_detail(p_detail TEXT) RETURNS VARCHAR(2000)
    DETERMINISTIC NO SQL SQL SECURITY DEFINER
    RETURN CASE WHEN CHAR_LENGTH(p_detail) > 2000 THEN CONCAT(LEFT(p_detail, 1997), '...') ELSE p_detail END$$

DELIMITER ;
