DROP TRIGGER IF EXISTS article_first_stage;

DELIMITER $$

-- A new article of a desk with stages starts at the first stage every article enters, however it
-- arrived (import, a corrected import row, seeds): NULL stays NULL on a desk without stages (one
-- look-up of an index that has no rows for the desk). An import that names a stage sets it itself.
CREATE TRIGGER article_first_stage BEFORE INSERT ON article FOR EACH ROW
BEGIN
    IF NEW.stage_id IS NULL THEN
        SET NEW.stage_id = (SELECT s.stage_id FROM desk_stage s WHERE s.desk_id = NEW.desk_id AND s.entered = 'always'
                             ORDER BY s.position LIMIT 1);
    END IF;
END$$

DELIMITER ;
