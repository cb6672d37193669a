DROP TRIGGER IF EXISTS article_first_stage;

DELIMITER $$

-- A new article of a desk with stages starts at the first stage every article enters, however it
-- arrived (import, a corrected import row, seeds): NULL stays NULL on a desk without stages (one
-- look-up of an index that has no rows for the desk). An import that names a stage sets it itself.
CREATE TRIGGER article_first_stage BEFORE INSERT ON article FOR EACH ROW
BEGIN
    DECLARE v_first VARCHAR(32);
    IF NEW.stage_id IS NULL THEN
        -- SELECT … INTO, not SET = (SELECT …): an assignment that reads a table takes shared locks
        SELECT (SELECT s.stage_id FROM desk_stage s WHERE s.desk_id = NEW.desk_id AND s.entered = 'always'
                 ORDER BY s.position LIMIT 1) INTO v_first;
        SET NEW.stage_id = v_first;
    END IF;
END$$

DELIMITER ;
