DROP PROCEDURE IF EXISTS deadline_forecast;

DELIMITER $$

-- A supervisor's forecast of one desk's deadlines at the current pace (docs/deadlines.md, "The
-- forecast"): the Deadlines tab and copydesk due forecast. Supervisors only (through role_grant,
-- and checked here): it lists every article due on the desk with who holds it. Reads only; the
-- clock is the server's (server_utc_now()), whatever the session set. p_within_minutes: how far
-- ahead to look, 1 minute to 24 hours (NULL: 4 hours).
-- Result 1, one row: desk_id, server_now, due_until (the window's end), pace_minutes (60: the pace is
-- the decisions of the last hour), due (in review, due by due_until and not yet late), at_risk (of
-- those, expected after their due time), late, not_forecast (of the due ones: no pace yet at a
-- stage they go through, on hold, with the writer, quarantined), people (active now who may take
-- one of the desk's stages), per_hour (the slowest stage's decisions of the last hour, of the
-- stages every article goes through; NULL: one of them has no pace yet).
-- Result 2, the stages in chain order (one row with stage_id NULL on a desk without stages):
-- stage_id, name, always (1|0), per_hour, people, held.
-- Result 3, the articles due by due_until (late ones too), earliest due first: article_id,
-- external_id, title, priority, stage_id, status, held_by, due_at, expected_at (NULL: not
-- forecast), position (at its stage, 1 first), at_risk (1|0; NULL when not forecast or late),
-- late (1|0), not_forecast (no_pace, on_hold, with_writer, quarantined; NULL when forecast), told
-- (1 when deadline_at_risk was told for this due time).
CREATE PROCEDURE deadline_forecast(IN p_desk VARCHAR(32), IN p_within_minutes INT)
    SQL SECURITY DEFINER READS SQL DATA
BEGIN
    DECLARE v_actor VARCHAR(64);
    DECLARE v_now DATETIME(6);
    DECLARE v_within INT;
    DECLARE v_stages LONGTEXT;
    DECLARE v_articles LONGTEXT;
    DECLARE v_desk_found INT;
    DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN CALL operation_fails(); RESIGNAL; END;
    CALL operation_begins();
    CALL resolve_actor(NULL, 'supervisor', v_actor);
    SELECT EXISTS (SELECT 1 FROM desk WHERE id = p_desk) INTO v_desk_found;
    IF v_desk_found = 0 THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: there is no such desk';
    END IF;
    SET v_within = COALESCE(p_within_minutes, 240);
    IF v_within < 1 OR v_within > 1440 THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: a forecast looks 1 minute to 24 hours ahead';
    END IF;
    SET v_now = server_utc_now();
    CALL forecast_deadlines(p_desk, v_within * 60, v_now, v_stages, v_articles);

    SELECT p_desk AS desk_id, v_now AS server_now, TIMESTAMPADD(MINUTE, v_within, v_now) AS due_until, 60 AS pace_minutes,
           COALESCE(SUM(a.due_at > v_now), 0) AS due,
           COALESCE(SUM(a.due_at > v_now AND a.expected_at > a.due_at), 0) AS at_risk,
           COALESCE(SUM(a.due_at <= v_now), 0) AS late,
           COALESCE(SUM(a.due_at > v_now AND a.expected_at IS NULL), 0) AS not_forecast,
           (SELECT COUNT(*) FROM editor e
             WHERE e.last_seen_at > TIMESTAMPADD(MINUTE, -3, v_now)
               AND (EXISTS (SELECT 1 FROM editor_desk ed WHERE ed.desk_id = p_desk AND ed.editor_id = e.id)
                    OR EXISTS (SELECT 1 FROM stage_taker t WHERE t.desk_id = p_desk AND t.editor_id = e.id))) AS people,
           (SELECT IF(MIN(st.per_hour) = 0, NULL, MIN(st.per_hour))
              FROM JSON_TABLE(v_stages, '$[*]' COLUMNS (always INT PATH '$[2]', per_hour INT PATH '$[3]')) st
             WHERE st.always = 1) AS per_hour
      FROM JSON_TABLE(v_articles, '$[*]' COLUMNS (due_at DATETIME(6) PATH '$[4]', expected_at DATETIME(6) PATH '$[5]')) a;

    SELECT st.stage_id, st.name, st.always, st.per_hour, st.people, st.held
      FROM JSON_TABLE(v_stages, '$[*]' COLUMNS (place FOR ORDINALITY, stage_id VARCHAR(32) PATH '$[0]', name VARCHAR(100) PATH '$[1]',
                                                always INT PATH '$[2]', per_hour INT PATH '$[3]', people INT PATH '$[4]',
                                                held INT PATH '$[5]')) st
     ORDER BY st.place;

    SELECT f.article_id, x.external_id, x.title, x.priority, f.stage_id, f.status, f.held_by, f.due_at, f.expected_at, f.position,
           IF(f.due_at <= v_now OR f.expected_at IS NULL, NULL, IF(f.expected_at > f.due_at, 1, 0)) AS at_risk,
           IF(f.due_at <= v_now, 1, 0) AS late, f.not_forecast,
           IF(EXISTS (SELECT 1 FROM deadline_event e
                       WHERE e.article_id = f.article_id AND e.kind = 'deadline_at_risk' AND e.due_at = f.due_at), 1, 0) AS told
      FROM JSON_TABLE(v_articles, '$[*]' COLUMNS (article_id BIGINT PATH '$[0]', stage_id VARCHAR(32) PATH '$[1]',
                                                  held_by VARCHAR(64) PATH '$[2]', status VARCHAR(16) PATH '$[3]',
                                                  due_at DATETIME(6) PATH '$[4]', expected_at DATETIME(6) PATH '$[5]',
                                                  position INT PATH '$[6]', not_forecast VARCHAR(16) PATH '$[7]')) f
      JOIN article x ON x.id = f.article_id
     ORDER BY f.due_at, f.article_id;
END$$

DELIMITER ;
