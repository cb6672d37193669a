DROP PROCEDURE IF EXISTS report_deadlines_at_risk;

DELIMITER $$

-- The sweep's forecast (take_sweep_turn calls it after report_missed_deadlines): forecasts up to
-- p_desks desks whose minute has come (deadline_forecast_turn: at most once a minute per desk, the
-- least recently forecast first, each taken with a compare-and-set so that only one of many
-- sweeping clients forecasts it), looking 4 hours ahead (forecast_deadlines). Each article the
-- forecast first finds at risk (expected after a due time that has not passed) is told once per
-- due time: a deadline_event row and a deadline_at_risk event in the feed, with the forecast in
-- words (expected time, position, holder), the holder if anyone holds it as its editor, the stage
-- and the due time. Each article in its own short transaction under its row lock (rechecked: still
-- waiting or held, the same due time), the unique key uq_deadline_event refusing a second event
-- however many clients sweep at once. A due time moved and at risk again is told again: it is a new
-- deadline the supervisor set, and the forecast says it will be missed too. An article no longer at
-- risk is not told; told once, it is not told again for that due time however often the forecast
-- changes its mind. Not granted to anyone. No result set.
CREATE PROCEDURE report_deadlines_at_risk(IN p_desks INT)
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_now DATETIME(6);
    DECLARE v_round INT DEFAULT 0;
    DECLARE v_rounds INT;
    DECLARE v_desk VARCHAR(32);
    DECLARE v_known INT;
    DECLARE v_pick VARCHAR(40);
    DECLARE v_stages LONGTEXT;
    DECLARE v_articles LONGTEXT;
    DECLARE v_list LONGTEXT;
    DECLARE v_i INT;
    DECLARE v_n INT;
    DECLARE v_id BIGINT;
    DECLARE v_due DATETIME(3);
    DECLARE v_expected DATETIME(6);
    DECLARE v_position INT;
    DECLARE v_found BIGINT;
    DECLARE v_status VARCHAR(16);
    DECLARE v_due_now DATETIME(3);
    DECLARE v_owner VARCHAR(64);
    DECLARE v_expires DATETIME(6);
    DECLARE v_external VARCHAR(128);
    DECLARE v_stage VARCHAR(32);
    DECLARE v_attempts INT;
    DECLARE v_holder VARCHAR(64);
    DECLARE v_words VARCHAR(1000);
    DECLARE v_duplicate INT;
    DECLARE CONTINUE HANDLER FOR NOT FOUND BEGIN END;
    SET v_rounds = GREATEST(1, LEAST(COALESCE(p_desks, 1), 20));
    SET v_now = server_utc_now();
    WHILE v_round < v_rounds DO
        SET v_round = v_round + 1;
        -- subqueries: no "no data" warning for the client's driver to ask about
        -- the desk, after whether it has a turn row yet (1 or 0)
        SELECT (SELECT CONCAT(IF(t.desk_id IS NULL, '0', '1'), d.id) FROM desk d LEFT JOIN deadline_forecast_turn t ON t.desk_id = d.id
                 WHERE t.desk_id IS NULL OR t.due_at <= v_now
                 ORDER BY COALESCE(t.due_at, '2000-01-01 00:00:00'), d.id LIMIT 1)
          INTO v_pick;
        SET v_known = LEFT(v_pick, 1), v_desk = SUBSTRING(v_pick, 2);
        IF v_desk IS NULL THEN
            SET v_round = v_rounds;
        ELSE
            IF v_known = 0 THEN
                -- the desk's first forecast; IGNORE: another sweeper may add it at the same moment
                INSERT IGNORE INTO deadline_forecast_turn (desk_id, due_at) VALUES (v_desk, '2000-01-01 00:00:00');
            END IF;
            UPDATE deadline_forecast_turn SET due_at = TIMESTAMPADD(MINUTE, 1, v_now) WHERE desk_id = v_desk AND due_at <= v_now;
            IF ROW_COUNT() = 1 THEN
                CALL forecast_deadlines(v_desk, 14400, v_now, v_stages, v_articles);
                SELECT CONCAT('[', GROUP_CONCAT(JSON_ARRAY(f.article_id, DATE_FORMAT(f.due_at, '%Y-%m-%d %H:%i:%s.%f'),
                                                           DATE_FORMAT(f.expected_at, '%Y-%m-%d %H:%i:%s.%f'), f.position)
                                                ORDER BY f.due_at, f.article_id SEPARATOR ','), ']')
                  INTO v_list
                  FROM JSON_TABLE(v_articles, '$[*]' COLUMNS (article_id BIGINT PATH '$[0]', due_at DATETIME(6) PATH '$[4]',
                                                              expected_at DATETIME(6) PATH '$[5]', position INT PATH '$[6]')) f
                 WHERE f.expected_at > f.due_at AND f.due_at > v_now
                   AND NOT EXISTS (SELECT 1 FROM deadline_event e
                                    WHERE e.article_id = f.article_id AND e.kind = 'deadline_at_risk' AND e.due_at = f.due_at);
                SET v_i = 0, v_n = COALESCE(JSON_LENGTH(v_list), 0);
                WHILE v_i < v_n DO
                    SET v_id = JSON_UNQUOTE(JSON_EXTRACT(v_list, CONCAT('$[', v_i, '][0]')));
                    SET v_due = JSON_UNQUOTE(JSON_EXTRACT(v_list, CONCAT('$[', v_i, '][1]')));
                    SET v_expected = JSON_UNQUOTE(JSON_EXTRACT(v_list, CONCAT('$[', v_i, '][2]')));
                    SET v_position = JSON_UNQUOTE(JSON_EXTRACT(v_list, CONCAT('$[', v_i, '][3]')));
                    SET v_i = v_i + 1;
                    SET v_found = NULL, v_duplicate = 0;
                    START TRANSACTION;
                    SELECT id, status, due_at, locked_by, expires_at, external_id, stage_id, attempts
                      INTO v_found, v_status, v_due_now, v_owner, v_expires, v_external, v_stage, v_attempts
                      FROM article WHERE id = v_id FOR UPDATE;
                    IF v_found IS NOT NULL AND v_status = 'queued' AND v_due_now = v_due THEN
                        SET v_holder = IF(v_owner IS NOT NULL AND v_expires > v_now, v_owner, NULL);
                        SET v_words = CONCAT('due ', DATE_FORMAT(v_due, '%Y-%m-%d %H:%i:%s UTC'),
                                             ', expected ', DATE_FORMAT(v_expected, '%Y-%m-%d %H:%i:%s UTC'),
                                             ' at the current pace (', IF(v_holder IS NULL, CONCAT(v_position, ' in line'), 'in review'),
                                             IF(v_stage IS NULL, '', CONCAT(' at ', v_stage)),
                                             IF(v_holder IS NULL, ', not held)', CONCAT(', held by ', v_holder, ')')));
                        BEGIN
                            DECLARE CONTINUE HANDLER FOR 1062 SET v_duplicate = 1;
                            INSERT INTO deadline_event (article_id, kind, due_at, occurred_at, stage_id, held_by, detail)
                            VALUES (v_id, 'deadline_at_risk', v_due, v_now, v_stage, v_holder, v_words);
                        END;
                        IF v_duplicate = 0 THEN
                            -- last: the feed's order lock is held until the COMMIT (see decide_at_stage)
                            UPDATE outcome_order SET last_event = v_now WHERE id = 1;
                            INSERT INTO outcome_event (idempotency_key, outcome, article_id, external_id, desk_id, editor_id, verdict,
                                                       notes, article_status, send_backs, returns_at, lease_token, decided_at,
                                                       next_attempt_at, stage_id, to_stage_id, due_at)
                            VALUES (UUID(), 'deadline_at_risk', v_id, v_external, v_desk, COALESCE(v_holder, ''), NULL, v_words,
                                    v_status, v_attempts, NULL, NULL, v_now, v_now, v_stage, NULL, v_due);
                        END IF;
                    END IF;
                    COMMIT;
                END WHILE;
            END IF;
        END IF;
    END WHILE;
END$$

DELIMITER ;
