DROP TRIGGER IF EXISTS article_lease_revision;

DELIMITER $$

-- A new lease (a new fencing token) is handed the revision current at that moment: held_revision
-- is what the holder reads and decides on, so every path that grants a lease (claim, reassign,
-- take-over) records it without doing so itself. decide_article refuses a decision made on a
-- revision older than the article's, and the holder takes the new one with take_revision.
CREATE TRIGGER article_lease_revision BEFORE UPDATE ON article FOR EACH ROW
    -- one statement, not a test and a statement: it runs at every update of an article
    SET NEW.held_revision = IF(NEW.lease_token <> OLD.lease_token, NEW.revision, NEW.held_revision)$$

DELIMITER ;
