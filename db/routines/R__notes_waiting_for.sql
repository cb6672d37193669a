DROP FUNCTION IF EXISTS notes_waiting_for;

DELIMITER $$

-- The notes handed over on the article (handed_notes, from a force release) that p_editor's own
-- draft does not hold yet: written by someone else and handed over after p_editor last saved (the
-- window starts the holder's draft with them, so a draft saved later holds them). NULL when none.
-- Notes handed over before a decision on the article belong to that round, not to the article's
-- next one (an article quarantined and put back in the queue, one back from its writer).
-- Whether p_editor may see them (they hold the article) is the caller's question.
-- Reads with SELECT … INTO only: a subquery in a RETURN or SET reads with shared locks on MariaDB.
-- Internal: granted to nobody.
CREATE FUNCTION notes_waiting_for(p_article BIGINT, p_editor VARCHAR(64)) RETURNS TEXT
    NOT DETERMINISTIC READS SQL DATA SQL SECURITY DEFINER
BEGIN
    DECLARE v_notes TEXT DEFAULT NULL;
    DECLARE CONTINUE HANDLER FOR NOT FOUND BEGIN END;
    SELECT h.notes INTO v_notes FROM handed_notes h
     WHERE h.article_id = p_article AND h.written_by <> p_editor
       AND NOT EXISTS (SELECT 1 FROM review_draft d
                        WHERE d.article_id = p_article AND d.editor_id = p_editor AND d.saved_at >= h.handed_at)
       AND NOT EXISTS (SELECT 1 FROM decision c WHERE c.article_id = p_article AND c.decided_at > h.handed_at);
    RETURN v_notes;
END$$

DELIMITER ;
