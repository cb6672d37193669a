DROP PROCEDURE IF EXISTS hand_over_notes;

DELIMITER $$

-- Hands the notes p_from wrote on the article to the next holder, headed by p_from's name and the
-- time ("Notes from Ann Kowalski, 2026-11-29 14:02 UTC:"), after any notes handed to p_from that
-- their draft does not hold yet (notes_waiting_for): into p_to's draft ahead of p_to's own notes
-- (reassign_article), or, when nobody holds it yet (p_to NULL, force_release_article), into
-- handed_notes, where whoever holds it next reads them (own_review_draft). p_from's own draft stays
-- theirs. Text longer than a draft can hold is left to the history, which keeps p_from's own notes
-- ('notes_handed_over') either way: nothing of p_to's is cut. One place for both operations; runs
-- in the caller's transaction. Internal: granted to nobody.
CREATE PROCEDURE hand_over_notes(IN p_article BIGINT, IN p_actor VARCHAR(64), IN p_from VARCHAR(64), IN p_to VARCHAR(64),
                                 IN p_now DATETIME(6))
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_own TEXT DEFAULT NULL;
    DECLARE v_name VARCHAR(200) DEFAULT NULL;
    DECLARE v_waiting TEXT DEFAULT NULL;
    DECLARE v_mine TEXT DEFAULT NULL;
    DECLARE v_handed LONGTEXT;
    DECLARE CONTINUE HANDLER FOR NOT FOUND BEGIN END;
    -- reads with SELECT … INTO only: a subquery in a SET or IF reads with shared locks on MariaDB
    SELECT notes INTO v_own FROM review_draft WHERE article_id = p_article AND editor_id = p_from;
    IF TRIM(COALESCE(v_own, '')) = '' THEN
        SET v_own = NULL;
    END IF;
    SELECT display_name INTO v_name FROM editor WHERE id = p_from;
    SELECT notes_waiting_for(p_article, p_from) INTO v_waiting;
    -- the numbers of DATE_FORMAT, not its month names: those follow the session's lc_time_names
    SET v_handed = CONCAT_WS(CONCAT(CHAR(10), CHAR(10)), v_waiting,
                             IF(v_own IS NULL, NULL,
                                CONCAT('Notes from ', COALESCE(v_name, p_from), ', ',
                                       DATE_FORMAT(p_now, '%Y-%m-%d %H:%i'), ' UTC:', CHAR(10), v_own)));
    IF p_to IS NULL THEN
        IF v_handed = '' THEN -- nothing written, or p_from cleared what was handed to them
            DELETE FROM handed_notes WHERE article_id = p_article;
        ELSEIF OCTET_LENGTH(v_handed) <= 65535 THEN
            INSERT INTO handed_notes (article_id, written_by, handed_at, notes) VALUES (p_article, p_from, p_now, v_handed)
            ON DUPLICATE KEY UPDATE written_by = VALUES(written_by), handed_at = VALUES(handed_at), notes = VALUES(notes);
        END IF;
    ELSEIF v_handed <> '' THEN
        SELECT notes INTO v_mine FROM review_draft WHERE article_id = p_article AND editor_id = p_to FOR UPDATE;
        SET v_handed = CONCAT(v_handed, IF(TRIM(COALESCE(v_mine, '')) = '', '', CONCAT(CHAR(10), CHAR(10), v_mine)));
        IF OCTET_LENGTH(v_handed) <= 65535 THEN
            INSERT INTO review_draft (article_id, editor_id, verdict, notes, saved_at)
            VALUES (p_article, p_to, NULL, v_handed, p_now)
            ON DUPLICATE KEY UPDATE notes = VALUES(notes), saved_at = VALUES(saved_at);
        END IF;
    END IF;
    IF v_own IS NOT NULL THEN
        CALL log_event(p_article, 'notes_handed_over', p_actor, p_from, p_to, NULL, NULL, NULL, v_own, p_now);
    END IF;
END$$

DELIMITER ;
