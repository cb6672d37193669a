DROP PROCEDURE IF EXISTS deadline_report;

DELIMITER $$

-- How the desks did, per day (docs/deadlines.md, "How the desk did"): for the decisions of each
-- day, per desk and stage, how many there were, how many were of articles with a due time, how many
-- of those were made by it, and the median and 90th percentile of the time from the article's
-- arrival at the stage's queue to the decision. Queue health and copydesk due report. Supervisors
-- only (through role_grant, and checked here): it is a desk's record, not an editor's business.
--
-- p_days: the days as the reader's clock has them, a JSON array of the UTC times they start at and,
-- last, the time the last one ends ('YYYY-MM-DD HH:MM:SS'); 2 to 32 times, ascending, each day 20 to
-- 26 hours long (a day a daylight-saving change shortens or lengthens is 23 or 25 hours). The
-- client computes them in its own time zone, so the server needs no time zone tables and no
-- session's @@time_zone or @@timestamp moves a decision to another day. p_desk: one desk; NULL: all.
--
-- A decision is any verdict (approve, reject, send back, unreviewable) at a stage: each takes the
-- article off that stage's queue. On a desk with stages a row counts the decisions made at that
-- stage; an article's final decision is the one at the stage where it was approved or rejected.
-- In time: decided at or before the article's due time as it is now (a due time moved later also
-- moves the judgement). Arrival: the latest of the article's arrival on the desk, the arrival of
-- the revision decided on (a revision back from its writer), and the article's decision before this
-- one (the previous stage's, or a send-back whose article came back on the desk's timer). A
-- supervisor's move to another stage and a lease given back are not arrivals: the article waited.
-- Percentiles by nearest rank: of n times in ascending order, the p-th percentile is the
-- CEIL(p / 100 * n)-th (MySQL has no PERCENTILE_CONT; ROW_NUMBER and COUNT OVER work on both).
--
-- Through the desk: on a desk with stages, one more row per day and desk (stage_id NULL,
-- through_desk 1) for the decisions that took the article off the desk, the final ones: every
-- decision but a stage step (an approval that moved it on, a send-back to an earlier stage: the
-- decisions whose outcome event is stage_passed or stage_returned). Its times run from the arrival
-- of the revision decided on (the article's arrival for revision 1) to the final decision: the
-- whole chain. On a desk that sends work back on a timer no new revision comes, so the back-off
-- counts in it. A desk without stages needs no such row: its one row's decisions are final ones.
--
-- Result: one row per day, desk and stage that had decisions (stage_id NULL on a desk without
-- stages), by day, desk and the stage's place in the chain, the through-the-desk row last,
-- whole_span 0; then one row per desk and stage over the whole span (day_start the first time,
-- day_end the last), whole_span 1, its percentiles those of all the span's decisions (not an
-- average of the days'). Columns: whole_span, day_start, day_end (UTC), desk_id, stage_id,
-- stage_name, stage_position, stage_order, through_desk, decisions, with_due, in_time,
-- p50_seconds, p90_seconds.
CREATE PROCEDURE deadline_report(IN p_desk VARCHAR(32), IN p_days TEXT)
    SQL SECURITY DEFINER READS SQL DATA
BEGIN
    DECLARE v_actor VARCHAR(64);
    DECLARE v_first DATETIME(6);
    DECLARE v_last DATETIME(6);
    DECLARE v_unreadable INT;
    DECLARE v_bad_length INT;
    DECLARE v_desk_found INT;
    DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN CALL operation_fails(); RESIGNAL; END;
    CALL operation_begins();
    CALL resolve_actor(NULL, 'supervisor', v_actor);
    IF p_desk IS NOT NULL THEN
        SELECT EXISTS (SELECT 1 FROM desk WHERE id = p_desk) INTO v_desk_found;
        IF v_desk_found = 0 THEN
            SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: there is no such desk';
        END IF;
    END IF;
    IF p_days IS NULL OR JSON_VALID(p_days) = 0 THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: a report takes its days as a JSON array of UTC times';
    END IF;
    IF JSON_TYPE(p_days) <> 'ARRAY' OR JSON_LENGTH(p_days) < 2 OR JSON_LENGTH(p_days) > 32 THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: a report covers 1 to 31 days: 2 to 32 UTC times';
    END IF;
    -- each time exactly 'YYYY-MM-DD HH:MM:SS' and a real one (CAST answers NULL for 2026-02-30)
    SELECT SUM(b.at IS NULL), SUM(b.length_seconds IS NOT NULL AND (b.length_seconds < 72000 OR b.length_seconds > 93600)),
           MIN(b.at), MAX(b.at)
      INTO v_unreadable, v_bad_length, v_first, v_last
      FROM (SELECT t.at, TIMESTAMPDIFF(SECOND, LAG(t.at) OVER (ORDER BY t.n), t.at) AS length_seconds
              FROM (SELECT j.n, IF(j.txt REGEXP '^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}$',
                                   CAST(j.txt AS DATETIME), NULL) AS at
                      FROM JSON_TABLE(p_days, '$[*]' COLUMNS (n FOR ORDINALITY, txt VARCHAR(40) PATH '$')) j) t) b;
    IF v_unreadable > 0 THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: a report''s days are UTC times written YYYY-MM-DD HH:MM:SS';
    END IF;
    IF v_bad_length > 0 THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: a report''s days are in order, each 20 to 26 hours long';
    END IF;

    -- The decisions of the span are a range of ix_decision_time; each reads its article and its
    -- revision by primary key and the decision before it from ix_decision_article (article, time).
    -- Forced, and in this order: for one desk MySQL 8 otherwise started from the desk's articles, all
    -- of its history (238,000 rows read for a week of 7,000 decisions, against 126,000 for every desk).
    WITH days AS (
        SELECT d.n, d.day_start, d.day_end
          FROM (SELECT j.n, CAST(j.txt AS DATETIME(6)) AS day_start,
                       LEAD(CAST(j.txt AS DATETIME(6))) OVER (ORDER BY j.n) AS day_end
                  FROM JSON_TABLE(p_days, '$[*]' COLUMNS (n FOR ORDINALITY, txt VARCHAR(40) PATH '$')) j) d
         WHERE d.day_end IS NOT NULL
    ), decided AS (
        SELECT dy.n AS day_no, a.desk_id, dc.stage_id, dc.decided_at, a.due_at,
               GREATEST(a.created_at, COALESCE(r.arrived_at, a.created_at)) AS revision_arrived_at,
               TIMESTAMPDIFF(SECOND,
                   GREATEST(a.created_at, COALESCE(r.arrived_at, a.created_at),
                            COALESCE((SELECT MAX(p.decided_at) FROM decision p
                                       WHERE p.article_id = dc.article_id AND p.decided_at < dc.decided_at), a.created_at)),
                   dc.decided_at) AS seconds,
               -- a final decision on a desk with stages: no stage step's event (one lookup by the event's unique
               -- key, made only on a desk with stages: in IF, not as a join, which looked up every decision)
               IF(dc.stage_id IS NULL, 0, NOT EXISTS (SELECT 1 FROM outcome_event o WHERE o.idempotency_key = dc.request_id
                                                         AND o.outcome IN ('stage_passed', 'stage_returned'))) AS final_at_stage
          FROM decision dc FORCE INDEX (ix_decision_time)
          STRAIGHT_JOIN article a ON a.id = dc.article_id
          LEFT JOIN article_revision r ON r.article_id = dc.article_id AND r.revision = dc.revision
          JOIN days dy ON dc.decided_at >= dy.day_start AND dc.decided_at < dy.day_end
         WHERE dc.decided_at >= v_first AND dc.decided_at < v_last
           AND (p_desk IS NULL OR a.desk_id = p_desk)
    ), timed AS (
        -- each decision once for its stage's row and, when final on a desk with stages, once more for
        -- the desk's: a join with two constant rows, so the span's decisions are read once (a second
        -- reference to decided may be evaluated again, as the server likes)
        SELECT d.day_no, d.desk_id, IF(k.through_desk = 1, NULL, d.stage_id) AS stage_id, k.through_desk, d.decided_at, d.due_at,
               IF(k.through_desk = 1, TIMESTAMPDIFF(SECOND, d.revision_arrived_at, d.decided_at), d.seconds) AS seconds
          FROM decided d
          JOIN (SELECT 0 AS through_desk UNION ALL SELECT 1) k ON k.through_desk = 0 OR d.final_at_stage
    ), ranked AS (
        SELECT t.*, ROW_NUMBER() OVER (PARTITION BY t.day_no, t.desk_id, t.stage_id, t.through_desk ORDER BY t.seconds) AS rn,
               COUNT(*) OVER (PARTITION BY t.day_no, t.desk_id, t.stage_id, t.through_desk) AS n,
               ROW_NUMBER() OVER (PARTITION BY t.desk_id, t.stage_id, t.through_desk ORDER BY t.seconds) AS span_rn,
               COUNT(*) OVER (PARTITION BY t.desk_id, t.stage_id, t.through_desk) AS span_n
          FROM timed t
    ), per_day AS (
        SELECT x.day_no, x.desk_id, x.stage_id, x.through_desk, COUNT(*) AS decisions,
               SUM(x.due_at IS NOT NULL) AS with_due, COALESCE(SUM(x.decided_at <= x.due_at), 0) AS in_time,
               MIN(IF(x.rn = CEIL(x.n * 0.5), x.seconds, NULL)) AS p50_seconds,
               MIN(IF(x.rn = CEIL(x.n * 0.9), x.seconds, NULL)) AS p90_seconds
          FROM ranked x
         GROUP BY x.day_no, x.desk_id, x.stage_id, x.through_desk
    ), per_span AS (
        SELECT x.desk_id, x.stage_id, x.through_desk, COUNT(*) AS decisions,
               SUM(x.due_at IS NOT NULL) AS with_due, COALESCE(SUM(x.decided_at <= x.due_at), 0) AS in_time,
               MIN(IF(x.span_rn = CEIL(x.span_n * 0.5), x.seconds, NULL)) AS p50_seconds,
               MIN(IF(x.span_rn = CEIL(x.span_n * 0.9), x.seconds, NULL)) AS p90_seconds
          FROM ranked x
         GROUP BY x.desk_id, x.stage_id, x.through_desk
    )
    SELECT 0 AS whole_span, dy.day_start, dy.day_end, g.desk_id, g.stage_id, s.name AS stage_name, s.position AS stage_position,
           COALESCE(s.position, 2147483647) AS stage_order, g.through_desk, g.decisions, g.with_due, g.in_time,
           g.p50_seconds, g.p90_seconds
      FROM per_day g
      JOIN days dy ON dy.n = g.day_no
      LEFT JOIN desk_stage s ON s.desk_id = g.desk_id AND s.stage_id = g.stage_id
    UNION ALL
    SELECT 1, v_first, v_last, g.desk_id, g.stage_id, s.name, s.position, COALESCE(s.position, 2147483647), g.through_desk,
           g.decisions, g.with_due, g.in_time, g.p50_seconds, g.p90_seconds
      FROM per_span g
      LEFT JOIN desk_stage s ON s.desk_id = g.desk_id AND s.stage_id = g.stage_id
     ORDER BY whole_span, day_start, desk_id, stage_order, through_desk, stage_id;
END$$

DELIMITER ;
