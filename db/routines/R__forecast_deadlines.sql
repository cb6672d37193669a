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
    DECLARE v_others LONGTEXT DEFAULT NULL;
    DECLARE v_out LONGTEXT DEFAULT NULL;
    DECLARE v_staged INT;

    SELECT EXISTS (SELECT 1 FROM desk_stage WHERE desk_id = p_desk) INTO v_staged;
    IF v_staged = 1 THEN
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
    -- the last priority with something due by the window's end: the walk goes no further
    SELECT MAX(priority) INTO v_last_priority FROM article FORCE INDEX (ix_article_due)
     WHERE status = 'queued' AND due_at <= v_horizon AND desk_id = p_desk;
    IF v_last_priority IS NOT NULL THEN
        -- One statement, no loop over articles (a loop cost ~28 routine statements an article). Per
        -- walked article a (w: its place rn in claim order, its stage index k) and stage j (st), the
        -- articles waiting at j before a (before_j, a running count per stage), then for the stages a
        -- goes through (its own, and the later ones every article enters): what is ahead of a at j,
        -- ahead_j (what is held and waits before it at its stage and the ones between, summed over j),
        -- and one article's time there, step_j. The expected time is the recurrence
        -- T_j = max(T_j-1 + step_j, (ahead_j + 1) * step_j), T from when a can be taken, unrolled:
        -- max(start + the sum of the steps, the largest (ahead_j + 1) * step_j + the steps after j).
        SELECT CONCAT('[', GROUP_CONCAT(JSON_ARRAY(
                   f.id, f.stage_id, f.holder, 'queued', DATE_FORMAT(f.due_at, '%Y-%m-%d %H:%i:%s.%f'),
                   IF(f.on_hold = 1 OR f.unpaced > 0, NULL,
                      DATE_FORMAT(TIMESTAMPADD(MICROSECOND, ROUND(f.seconds * 1000000), p_now), '%Y-%m-%d %H:%i:%s.%f')),
                   f.position, IF(f.on_hold = 1, 'on_hold', IF(f.unpaced > 0, 'no_pace', NULL)))
               ORDER BY f.rn SEPARATOR ','), ']')
          INTO v_out
          FROM (SELECT y.id, y.rn, y.stage_id, y.holder, y.due_at, y.on_hold, SUM(IF(y.pace > 0, 0, 1)) AS unpaced,
                       MAX(IF(y.j = y.k, y.ahead + 1, NULL)) AS position,
                       GREATEST(MAX(y.start) + SUM(y.step), MAX((y.ahead + 1) * y.step + COALESCE(y.after, 0))) AS seconds
                  FROM (SELECT z.*, SUM(z.term) OVER (PARTITION BY z.id ORDER BY z.j) AS ahead,
                               SUM(z.step) OVER (PARTITION BY z.id ORDER BY z.j ROWS BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING) AS after
                          FROM (SELECT x.id, x.rn, x.k, x.j, x.stage_id, x.holder, x.due_at, x.on_hold, x.start, x.pace,
                                       IF(x.pace > 0, 3600 / x.pace, 0) AS step,
                                       IF(x.held = 1 AND x.j = x.k, 0, x.held_j + COALESCE(x.before_j, 0)) AS term
                                  FROM (SELECT w.*, st.place - 1 AS j, st.always, st.pace, st.held AS held_j,
                                               SUM(IF(w.waiting = 1 AND w.k = st.place - 1, 1, 0))
                                                   OVER (PARTITION BY st.place ORDER BY w.rn ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING)
                                                   AS before_j
                                          FROM (SELECT a.id, ROW_NUMBER() OVER (ORDER BY a.priority, a.due_order, a.queue_lane, a.available_at, a.id) AS rn,
                                                       COALESCE(s.k, 0) AS k, a.stage_id, a.due_at,
                                                       IF(a.locked_by IS NOT NULL AND a.expires_at > p_now, 1, 0) AS held,
                                                       IF(a.locked_by IS NOT NULL AND a.expires_at > p_now, a.locked_by, NULL) AS holder,
                                                       IF(a.held_at IS NOT NULL, 1, 0) AS on_hold,
                                                       IF((a.locked_by IS NULL OR a.expires_at <= p_now) AND a.held_at IS NULL
                                                          AND a.available_at <= p_now, 1, 0) AS waiting,
                                                       IF(a.available_at > p_now, TIMESTAMPDIFF(MICROSECOND, p_now, a.available_at) / 1000000, 0)
                                                           AS start
                                                  FROM (SELECT id, stage_id, priority, due_order, queue_lane, available_at, due_at, locked_by,
                                                               expires_at, held_at
                                                          FROM article FORCE INDEX (ix_article_claim)
                                                         WHERE status = 'queued'
                                                           AND (priority < v_last_priority
                                                                OR (priority = v_last_priority AND due_order <= v_horizon))
                                                           AND desk_id = p_desk
                                                         ORDER BY priority, due_order, queue_lane, available_at, id
                                                         LIMIT 3000) a
                                                  LEFT JOIN (SELECT stage_id, ROW_NUMBER() OVER (ORDER BY position) - 1 AS k
                                                               FROM desk_stage WHERE desk_id = p_desk) s ON s.stage_id = a.stage_id) w
                                         CROSS JOIN JSON_TABLE(o_stages, '$[*]' COLUMNS (place FOR ORDINALITY, always INT PATH '$[2]',
                                                                                         pace INT PATH '$[3]', held INT PATH '$[5]')) st) x
                                 WHERE x.due_at <= v_horizon AND x.j >= x.k AND (x.j = x.k OR x.always = 1)) z) y
                 GROUP BY y.id, y.rn, y.stage_id, y.holder, y.due_at, y.on_hold) f;
    END IF;
    SET v_out = COALESCE(v_out, '[]');
    SET v_out = SUBSTRING(v_out, 2, CHAR_LENGTH(v_out) - 2);

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
