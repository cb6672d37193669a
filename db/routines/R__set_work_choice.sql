DROP PROCEDURE IF EXISTS set_work_choice;

DELIMITER $$

-- A person chooses the desks and stages they take work from (docs/workflow.md, "What an editor takes
-- work from"). p_choice: "desk" entries (every stage of the desk they may take, or the desk itself
-- if it has no stages) and "desk/stage" entries, comma-separated; NULL or empty: everything they may
-- work. Refused, with nothing changed, when an entry names a desk or stage they may not work: a
-- choice narrows what the claim hands out and never widens it. The claim checks the entries again on
-- every call, so a choice an admin's later change made stale is ignored there, not here. Returns the
-- choice as kept (each entry once, in the order given).
CREATE PROCEDURE set_work_choice(IN p_as VARCHAR(64), IN p_choice VARCHAR(2000))
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_actor VARCHAR(64);
    DECLARE v_rest VARCHAR(2000);
    DECLARE v_entry VARCHAR(2000);
    DECLARE v_kept VARCHAR(2000) DEFAULT NULL;
    DECLARE v_found INT;
    DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN CALL operation_fails(); RESIGNAL; END;
    CALL operation_begins();
    CALL resolve_actor(p_as, 'editor', v_actor);
    SET v_rest = NULLIF(REPLACE(p_choice, ' ', ''), '');
    START TRANSACTION;
    -- the person's row, locked: one change of their choice at a time
    SELECT COUNT(*) INTO v_found FROM editor WHERE id = v_actor FOR UPDATE;
    IF v_found = 0 THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: there is no editor of that name';
    END IF;
    WHILE v_rest IS NOT NULL DO
        SET v_entry = SUBSTRING_INDEX(v_rest, ',', 1);
        SET v_rest = NULLIF(SUBSTRING(v_rest, CHAR_LENGTH(v_entry) + 2), '');
        IF v_entry <> '' THEN
            IF LOCATE('/', v_entry) = 0 THEN
                -- a desk: one they are on, or one with a stage naming them (a lawyer's Legal)
                SELECT EXISTS (SELECT 1 FROM editor_desk d WHERE d.editor_id = v_actor AND d.desk_id = v_entry)
                    OR EXISTS (SELECT 1 FROM stage_taker t WHERE t.editor_id = v_actor AND t.desk_id = v_entry)
                  INTO v_found;
            ELSE
                -- a stage: one they may take, as the claim decides it
                SELECT EXISTS (SELECT 1 FROM desk_stage s
                                WHERE s.desk_id = SUBSTRING_INDEX(v_entry, '/', 1)
                                  AND s.stage_id = SUBSTRING(v_entry, LOCATE('/', v_entry) + 1)
                                  AND ((s.takers = 'desk' AND EXISTS (SELECT 1 FROM editor_desk d
                                                                       WHERE d.editor_id = v_actor AND d.desk_id = s.desk_id))
                                       OR (s.takers = 'named' AND EXISTS (SELECT 1 FROM stage_taker t WHERE t.desk_id = s.desk_id
                                                                          AND t.stage_id = s.stage_id AND t.editor_id = v_actor))))
                  INTO v_found;
            END IF;
            IF NOT v_found THEN
                SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: you do not take work from that desk or stage';
            END IF;
            IF v_kept IS NULL OR FIND_IN_SET(v_entry, v_kept) = 0 THEN
                SET v_kept = CONCAT_WS(',', v_kept, v_entry);
            END IF;
        END IF;
    END WHILE;
    UPDATE editor SET work_choice = v_kept WHERE id = v_actor;
    COMMIT;
    SELECT v_kept AS work_choice;
END$$

DELIMITER ;
