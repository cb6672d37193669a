DROP PROCEDURE IF EXISTS stage_step;

DELIMITER $$

-- Where a decision at a stage sends the article, checked (decide_at_stage; internal: granted to
-- nobody). Refuses, with nothing changed, a decision by someone who may not take the stage (the
-- desk's editors, or the people it names), an approval at a four-eyes stage by someone who approved
-- the article at another stage (in any pass: a revision that re-enters at a later stage did not go
-- through the earlier ones again, so their approvals still stand for it), an asked-for stage that is
-- not a later when_asked stage, and a send-back to a stage that is not an earlier one of the desk.
-- Records the stages asked for. o_to: approve, the next stage that is entered (always, or asked
-- for), NULL at the last (the final approval); send-back to a stage, that stage; else NULL.
-- p_stage NULL (a desk without stages) with a stage named or asked for is refused.
CREATE PROCEDURE stage_step(IN p_actor VARCHAR(64), IN p_article BIGINT, IN p_desk VARCHAR(32), IN p_stage VARCHAR(32),
                            IN p_verdict VARCHAR(16), IN p_to_stage VARCHAR(32), IN p_ask VARCHAR(1000), IN p_now DATETIME(6),
                            OUT o_to VARCHAR(32))
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_position INT;
    DECLARE v_takers VARCHAR(8);
    DECLARE v_four_eyes INT;
    DECLARE v_rest VARCHAR(1000);
    DECLARE v_asked VARCHAR(1000);
    DECLARE v_other INT;
    DECLARE v_may INT; -- the actor may take the stage
    DECLARE v_approved_elsewhere INT; -- the actor approved the article at another stage
    DECLARE CONTINUE HANDLER FOR NOT FOUND BEGIN END; -- no such row: the variables stay NULL
    SET o_to = NULL;
    SET p_to_stage = NULLIF(TRIM(p_to_stage), ''), p_ask = NULLIF(REPLACE(p_ask, ' ', ''), '');
    IF p_to_stage IS NOT NULL AND p_verdict <> 'send_back' THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: only a send-back names an earlier stage';
    END IF;
    IF p_ask IS NOT NULL AND p_verdict NOT IN ('approve', 'send_back') THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: stages are asked for with an approval or a send-back';
    END IF;
    IF p_stage IS NULL THEN
        IF p_to_stage IS NOT NULL OR p_ask IS NOT NULL THEN
            SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: this desk has no stages';
        END IF;
    ELSE
        SELECT position, takers, four_eyes INTO v_position, v_takers, v_four_eyes
          FROM desk_stage WHERE desk_id = p_desk AND stage_id = p_stage;
        IF v_position IS NULL THEN
            SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: the article waits at a stage its desk does not have';
        END IF;
        -- read into variables with SELECT … INTO: a condition that reads a table takes shared locks
        SELECT (v_takers = 'desk' AND EXISTS (SELECT 1 FROM editor_desk WHERE editor_id = p_actor AND desk_id = p_desk))
               OR (v_takers = 'named' AND EXISTS (SELECT 1 FROM stage_taker WHERE desk_id = p_desk AND stage_id = p_stage
                                                     AND editor_id = p_actor)),
               EXISTS (SELECT 1 FROM decision WHERE article_id = p_article AND editor_id = p_actor AND verdict = 'approve'
                          AND stage_id IS NOT NULL AND stage_id <> p_stage)
          INTO v_may, v_approved_elsewhere;
        IF NOT v_may THEN
            SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: this stage is not yours to decide';
        END IF;
        IF v_four_eyes = 1 AND p_verdict = 'approve' AND v_approved_elsewhere THEN
            SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: four eyes: you approved this article at another stage, so someone else approves it here';
        END IF;
        SET v_rest = p_ask;
        WHILE v_rest IS NOT NULL DO
            SET v_asked = SUBSTRING_INDEX(v_rest, ',', 1);
            SET v_rest = NULLIF(SUBSTRING(v_rest, CHAR_LENGTH(v_asked) + 2), '');
            SET v_other = NULL;
            SELECT position INTO v_other FROM desk_stage WHERE desk_id = p_desk AND stage_id = v_asked AND entered = 'when_asked';
            IF v_other IS NULL OR v_other <= v_position THEN
                SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: only a later stage of the desk that is entered when asked can be asked for';
            END IF;
            INSERT INTO article_stage_request (article_id, stage_id, asked_by, asked_at)
            VALUES (p_article, v_asked, p_actor, p_now)
            ON DUPLICATE KEY UPDATE asked_by = VALUES(asked_by), asked_at = VALUES(asked_at);
        END WHILE;
        IF p_verdict = 'approve' THEN
            SELECT s.stage_id INTO o_to FROM desk_stage s
             WHERE s.desk_id = p_desk AND s.position > v_position
               AND (s.entered = 'always'
                    OR EXISTS (SELECT 1 FROM article_stage_request r WHERE r.article_id = p_article AND r.stage_id = s.stage_id))
             ORDER BY s.position LIMIT 1;
        ELSEIF p_to_stage IS NOT NULL THEN
            SET v_other = NULL;
            SELECT stage_id, position INTO o_to, v_other
              FROM desk_stage WHERE desk_id = p_desk AND stage_id = p_to_stage;
            IF o_to IS NULL OR v_other >= v_position THEN
                SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: a send-back to a stage names an earlier stage of the article''s desk';
            END IF;
        END IF;
    END IF;
END$$

DELIMITER ;
