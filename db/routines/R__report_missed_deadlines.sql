DROP PROCEDURE IF EXISTS report_missed_deadlines;

DELIMITER $$

-- The sweep's part for deadlines (take_sweep_turn calls it, after the lapsed leases): up to p_batch
-- articles whose due time has passed on the server's clock and was not told yet (due_watch_at), in
-- due order. For each one still in review (not approved or rejected) the feed gets one
-- deadline_missed event (the holder, if anyone holds it, as its editor; the stage; the due time),
-- and deadline_event a row; an article decided in time is only struck off the watch. Each article
-- in its own short transaction, its row locked by primary key, so a claim or a decision waits for
-- at most one article's book-keeping. Exactly once per article and due time, however many clients
-- sweep at once: the watch is cleared under the row's lock and the event's unique key
-- (uq_deadline_event) refuses a second one. Not granted to anyone. No result set.
CREATE PROCEDURE report_missed_deadlines(IN p_batch INT)
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_now DATETIME(6);
    DECLARE v_batch INT;
    DECLARE v_due_list TEXT;
    DECLARE v_i INT DEFAULT 0;
    DECLARE v_n INT DEFAULT 0;
    DECLARE v_id BIGINT;
    DECLARE v_watch DATETIME(3);
    DECLARE v_found BIGINT;
    DECLARE v_status VARCHAR(16);
    DECLARE v_due DATETIME(3);
    DECLARE v_owner VARCHAR(64);
    DECLARE v_expires DATETIME(6);
    DECLARE v_external VARCHAR(128);
    DECLARE v_desk VARCHAR(32);
    DECLARE v_stage VARCHAR(32);
    DECLARE v_attempts INT;
    DECLARE v_holder VARCHAR(64);
    DECLARE v_duplicate INT DEFAULT 0;
    DECLARE CONTINUE HANDLER FOR NOT FOUND BEGIN END;
    SET v_batch = GREATEST(1, LEAST(COALESCE(p_batch, 100), 1000));
    SET v_now = server_utc_now();
    -- a plain read of the watch index's range up to now: the articles to look at, [[id, watch], …]
    SELECT JSON_ARRAYAGG(JSON_ARRAY(w.id, DATE_FORMAT(w.due_watch_at, '%Y-%m-%d %H:%i:%s.%f'))) INTO v_due_list
      FROM (SELECT id, due_watch_at FROM article FORCE INDEX (ix_article_due_watch)
             WHERE due_watch_at <= v_now ORDER BY due_watch_at LIMIT v_batch) w;
    SET v_n = COALESCE(JSON_LENGTH(v_due_list), 0);
    WHILE v_i < v_n DO
        SET v_id = JSON_UNQUOTE(JSON_EXTRACT(v_due_list, CONCAT('$[', v_i, '][0]')));
        SET v_watch = JSON_UNQUOTE(JSON_EXTRACT(v_due_list, CONCAT('$[', v_i, '][1]')));
        SET v_i = v_i + 1;
        SET v_found = NULL, v_duplicate = 0;
        START TRANSACTION;
        SELECT id, status, due_at, locked_by, expires_at, external_id, desk_id, stage_id, attempts
          INTO v_found, v_status, v_due, v_owner, v_expires, v_external, v_desk, v_stage, v_attempts
          FROM article WHERE id = v_id AND due_watch_at = v_watch FOR UPDATE;
        IF v_found IS NOT NULL THEN
            -- struck off the watch whatever follows: told now, or decided in time
            UPDATE article SET due_watch_at = NULL WHERE id = v_id;
            IF v_status NOT IN ('approved', 'rejected') AND v_due = v_watch THEN
                SET v_holder = IF(v_owner IS NOT NULL AND v_expires > v_now, v_owner, NULL);
                BEGIN
                    DECLARE CONTINUE HANDLER FOR 1062 SET v_duplicate = 1;
                    INSERT INTO deadline_event (article_id, kind, due_at, occurred_at, stage_id, held_by)
                    VALUES (v_id, 'deadline_missed', v_due, v_now, v_stage, v_holder);
                END;
                IF v_duplicate = 0 THEN
                    -- last: the feed's order lock is held until the COMMIT (see decide_at_stage)
                    UPDATE outcome_order SET last_event = v_now WHERE id = 1;
                    INSERT INTO outcome_event (idempotency_key, outcome, article_id, external_id, desk_id, editor_id, verdict,
                                               notes, article_status, send_backs, returns_at, lease_token, decided_at,
                                               next_attempt_at, stage_id, to_stage_id, due_at)
                    VALUES (UUID(), 'deadline_missed', v_id, v_external, v_desk, COALESCE(v_holder, ''), NULL,
                            CONCAT('due ', DATE_FORMAT(v_due, '%Y-%m-%d %H:%i:%s UTC'),
                                   IF(v_holder IS NULL, ', not held', CONCAT(', held by ', v_holder))),
                            v_status, v_attempts, NULL, NULL, v_now, v_now, v_stage, NULL, v_due);
                END IF;
            END IF;
        END IF;
        COMMIT;
    END WHILE;
END$$

DELIMITER ;
