DROP TRIGGER IF EXISTS article_first_revision;

DELIMITER $$

-- Every article starts with revision 1, however it arrived (import, a corrected import row, seeds).
CREATE TRIGGER article_first_revision AFTER INSERT ON article FOR EACH ROW
BEGIN
    INSERT INTO article_revision (article_id, revision, title, byline, body, arrived_at)
    VALUES (NEW.id, NEW.revision, NEW.title, NEW.byline, NEW.body, NEW.created_at);
END$$

DELIMITER ;
