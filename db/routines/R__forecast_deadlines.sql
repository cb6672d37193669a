DROP PROCEDURE IF EXISTS forecast_deadlines;

DELIMITER $$

-- The forecast of one desk's deadlines at the current pace (docs/deadlines.md, "The forecast"), for
-- the Deadlines tab and copydesk due forecast (deadline_forecast) and for the sweep's
-- deadline_at_risk (report_deadlines_at_risk). p_now is the caller's server_utc_now(), so both see
-- the same clock; p_within_seconds how far ahead to look.
--  * Pace: each stage's decisions (any verdict: each takes an article off the stage) in the hour
--    before p_now, per hour; a stage with none has no pace yet, and nothing that must go through it
--    is forecast (no pace is invented). People: those whose client was heard from in the last 3
--    minutes (the dashboard's Active) who may take the stage (the desk's editors, or the people
--    named for it).
--  * The walk: the desk's articles waiting or held, in claim order (ix_article_claim), from the
--    head up to the last one due within the window: every priority before the last priority that
--    has something due, and of that priority what is due (or moved to the front) by the window's
--    end. At most 3,000 articles: a due article further down is not forecast (it is not listed).
--  * Each stage serves its queue in claim order at its pace. An article at position p of its stage
--    (the articles held there, and those waiting there before it in claim order, then itself) is
--    through that stage p / pace hours from now; then at each later stage every article enters
--    (always; a when_asked stage counts only where the article is now), behind what is held there
--    and what waits there or at the stages between before it in claim order, and never sooner than
--    one article's time after it left the stage before. A held article is first at its stage. An
--    embargoed article starts when its embargo ends; one on a supervisor's hold is not forecast.
--  * At risk: the expected time is after the due time (which has not passed: a passed one is late).
-- o_stages: JSON [[stage, name, always 1|0, decisions in the last hour, people, held], …] in chain
-- order; one entry with stage null on a desk without stages. o_articles: JSON [[article, stage,
-- holder, status, due, expected (null: no forecast), position at its stage, why not forecast], …]:
-- what is waiting or held in claim order, then what is with the writer or quarantined (no
-- forecast: not in a queue), each due by the window's end (late ones too). Reads only, locks
-- nothing. Internal: granted to nobody.
CREATE PROCEDURE forecast_deadlines(IN p_desk VARCHAR(32), IN p_within_seconds INT, IN p_now DATETIME(6),
                                    OUT o_stages LONGTEXT, OUT o_articles LONGTEXT)
    SQL SECURITY DEFINER READS SQL DATA
BEGIN
    DECLARE v_horizon DATETIME(6) DEFAULT TIMESTAMPADD(SECOND, p_within_seconds, p_now);
    DECLARE v_pace_since DATETIME(6) DEFAULT TIMESTAMPADD(MINUTE, -60, p_now);
    DECLARE v_active_since DATETIME(6) DEFAULT TIMESTAMPADD(MINUTE, -3, p_now);
    DECLARE v_last_priority INT DEFAULT NULL;
    DECLARE v_walk LONGTEXT DEFAULT NULL;
    DECLARE v_others LONGTEXT DEFAULT NULL;
    DECLARE v_out LONGTEXT DEFAULT '';
    DECLARE v_counts LONGTEXT;
    DECLARE v_stage_count INT;
    DECLARE v_n INT DEFAULT 0;
    DECLARE v_i INT DEFAULT 0;
    DECLARE v_j INT;
    DECLARE v_item LONGTEXT;
    DECLARE v_k INT;
    DECLARE v_held INT;
    DECLARE v_waiting INT;
    DECLARE v_ahead INT;
    DECLARE v_position INT;
    DECLARE v_pace INT;
    DECLARE v_paced INT;
    DECLARE v_seconds DECIMAL(20, 4);
    DECLARE v_why VARCHAR(16);

    IF EXISTS (SELECT 1 FROM desk_stage WHERE desk_id = p_desk) THEN
        SELECT CONCAT('[', GROUP_CONCAT(JSON_ARRAY(
                   s.stage_id, s.name, IF(s.entered = 'always', 1, 0),
                   (SELECT COUNT(*) FROM decision d FORCE INDEX (ix_decision_time) JOIN article a ON a.id = d.article_id
                     WHERE d.decided_at > v_pace_since AND d.decided_at <= p_now AND a.desk_id = p_desk AND d.stage_id = s.stage_id),
                   (SELECT COUNT(*) FROM editor e
                     WHERE e.last_seen_at > v_active_since
                       AND IF(s.takers = 'named',
                              EXISTS (SELECT 1 FROM stage_taker t WHERE t.desk_id = p_desk AND t.stage_id = s.stage_id AND t.editor_id = e.id),
                              EXISTS (SELECT 1 FROM editor_desk ed WHERE ed.desk_id = p_desk AND ed.editor_id = e.id))),
                   (SELECT COUNT(*) FROM article h FORCE INDEX (ix_article_expires)
                     WHERE h.expires_at > p_now AND h.locked_by IS NOT NULL AND h.status = 'queued' AND h.desk_id = p_desk
                       AND h.stage_id = s.stage_id))
               ORDER BY s.position SEPARATOR ','), ']')
          INTO o_stages
          FROM desk_stage s WHERE s.desk_id = p_desk;
    ELSE
        SELECT JSON_ARRAY(JSON_ARRAY(
                   NULL, d.name, 1,
                   (SELECT COUNT(*) FROM decision x FORCE INDEX (ix_decision_time) JOIN article a ON a.id = x.article_id
                     WHERE x.decided_at > v_pace_since AND x.decided_at <= p_now AND a.desk_id = p_desk),
                   (SELECT COUNT(*) FROM editor e
                     WHERE e.last_seen_at > v_active_since
                       AND EXISTS (SELECT 1 FROM editor_desk ed WHERE ed.desk_id = p_desk AND ed.editor_id = e.id)),
                   (SELECT COUNT(*) FROM article h FORCE INDEX (ix_article_expires)
                     WHERE h.expires_at > p_now AND h.locked_by IS NOT NULL AND h.status = 'queued' AND h.desk_id = p_desk)))
          INTO o_stages
          FROM desk d WHERE d.id = p_desk;
    END IF;
    SET v_stage_count = COALESCE(JSON_LENGTH(o_stages), 0);
    SET v_counts = CONCAT('[', TRIM(TRAILING ',' FROM REPEAT('0,', v_stage_count)), ']');

    -- the last priority with something due by the window's end: the walk goes no further
    SELECT MAX(priority) INTO v_last_priority FROM article FORCE INDEX (ix_article_due)
     WHERE status = 'queued' AND due_at <= v_horizon AND desk_id = p_desk;
    IF v_last_priority IS NOT NULL THEN
        -- [article, stage index, held, waiting (a claim could take it now), due (null: not listed),
        --  seconds until its embargo ends, on hold, holder, stage], in claim order
        SELECT CONCAT('[', GROUP_CONCAT(JSON_ARRAY(
                   w.id, COALESCE(s.k, 0), w.held, w.waiting,
                   IF(w.due_at <= v_horizon, DATE_FORMAT(w.due_at, '%Y-%m-%d %H:%i:%s.%f'), NULL),
                   IF(w.available_at > p_now, TIMESTAMPDIFF(MICROSECOND, p_now, w.available_at) / 1000000, 0),
                   w.on_hold, IF(w.held = 1, w.locked_by, NULL), w.stage_id)
               ORDER BY w.priority, w.due_order, w.queue_lane, w.available_at, w.id SEPARATOR ','), ']')
          INTO v_walk
          FROM (SELECT id, stage_id, priority, due_order, queue_lane, available_at, due_at, locked_by,
                       IF(locked_by IS NOT NULL AND expires_at > p_now, 1, 0) AS held,
                       IF(held_at IS NOT NULL, 1, 0) AS on_hold,
                       IF((locked_by IS NULL OR expires_at <= p_now) AND held_at IS NULL AND available_at <= p_now, 1, 0) AS waiting
                  FROM article FORCE INDEX (ix_article_claim)
                 WHERE status = 'queued'
                   AND (priority < v_last_priority OR (priority = v_last_priority AND due_order <= v_horizon))
                   AND desk_id = p_desk
                 ORDER BY priority, due_order, queue_lane, available_at, id
                 LIMIT 3000) w
          LEFT JOIN (SELECT stage_id, ROW_NUMBER() OVER (ORDER BY position) - 1 AS k FROM desk_stage WHERE desk_id = p_desk) s
                 ON s.stage_id = w.stage_id;
    END IF;

    SET v_n = COALESCE(JSON_LENGTH(v_walk), 0);
    WHILE v_i < v_n DO
        SET v_item = JSON_EXTRACT(v_walk, CONCAT('$[', v_i, ']'));
        SET v_i = v_i + 1;
        SET v_k = JSON_VALUE(v_item, '$[1]');
        SET v_held = JSON_VALUE(v_item, '$[2]');
        SET v_waiting = JSON_VALUE(v_item, '$[3]');
        IF JSON_VALUE(v_item, '$[4]') IS NOT NULL THEN
            SET v_seconds = JSON_VALUE(v_item, '$[5]'), v_ahead = 0, v_position = NULL, v_paced = 1, v_why = NULL;
            IF JSON_VALUE(v_item, '$[6]') = 1 THEN
                SET v_paced = 0, v_why = 'on_hold';
            END IF;
            SET v_j = v_k;
            WHILE v_paced = 1 AND v_j < v_stage_count DO
                IF v_j = v_k OR JSON_VALUE(o_stages, CONCAT('$[', v_j, '][2]')) = 1 THEN
                    -- a held article is first at its own stage; behind what is held and waiting before it at the later ones
                    IF v_held = 0 OR v_j > v_k THEN
                        SET v_ahead = v_ahead + JSON_VALUE(o_stages, CONCAT('$[', v_j, '][5]'))
                                              + JSON_VALUE(v_counts, CONCAT('$[', v_j, ']'));
                    END IF;
                    IF v_j = v_k THEN
                        SET v_position = v_ahead + 1;
                    END IF;
                    SET v_pace = JSON_VALUE(o_stages, CONCAT('$[', v_j, '][3]'));
                    IF v_pace = 0 THEN
                        SET v_paced = 0, v_why = 'no_pace';
                    ELSE
                        SET v_seconds = GREATEST(v_seconds + 3600 / v_pace, (v_ahead + 1) * 3600 / v_pace);
                    END IF;
                END IF;
                SET v_j = v_j + 1;
            END WHILE;
            SET v_out = CONCAT(v_out, IF(v_out = '', '', ','), JSON_ARRAY(
                JSON_VALUE(v_item, '$[0]'), JSON_VALUE(v_item, '$[8]'), JSON_VALUE(v_item, '$[7]'), 'queued',
                JSON_VALUE(v_item, '$[4]'),
                IF(v_paced = 1, DATE_FORMAT(TIMESTAMPADD(MICROSECOND, ROUND(v_seconds * 1000000), p_now), '%Y-%m-%d %H:%i:%s.%f'), NULL),
                v_position, v_why));
        END IF;
        IF v_waiting = 1 THEN
            SET v_counts = JSON_SET(v_counts, CONCAT('$[', v_k, ']'), CAST(JSON_VALUE(v_counts, CONCAT('$[', v_k, ']')) AS SIGNED) + 1);
        END IF;
    END WHILE;

    -- with the writer or quarantined: in review, due, but in no queue to walk
    SELECT GROUP_CONCAT(JSON_ARRAY(id, stage_id, NULL, status, DATE_FORMAT(due_at, '%Y-%m-%d %H:%i:%s.%f'), NULL, NULL,
                                   IF(status = 'quarantined', 'quarantined', 'with_writer'))
                        ORDER BY due_at, id SEPARATOR ',')
      INTO v_others
      FROM article FORCE INDEX (ix_article_due)
     WHERE status IN ('awaiting_writer', 'quarantined') AND due_at <= v_horizon AND desk_id = p_desk;
    SET o_articles = CONCAT('[', v_out, IF(v_out <> '' AND v_others IS NOT NULL, ',', ''), COALESCE(v_others, ''), ']');
END$$

DELIMITER ;
