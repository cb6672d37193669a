-- Issue 14: a claim and a decision in fewer statements, and decisions no longer queue behind each
-- other for the whole of their transaction.
--
-- Counted from the server's counters (docs/benchmarks.md), one claimed-and-decided row cost about
-- 24 SQL statements and 88 routine steps inside claim_articles and decide_article: the claim
-- handled its rows one at a time (a desk look-up, an UPDATE and one or two log_event calls per
-- row, the refresh of held leases the same), and every decision looked up its desk, made three
-- nested calls and took the outcome feed's one-row order lock (outcome_order, see V5) in the
-- middle of its transaction, so every other decision waited for the rest of it, commit included.
--
-- Re-created here, same parameters, same results, same history rows:
--   * claim_articles refreshes the editor's held leases in one UPDATE and writes their history in
--     one INSERT; it then picks the rows to take (SKIP_LOCKED: one locking read; BLOCKING: a
--     locking read by primary key per candidate, as in V7; OPTIMISTIC: the compare-and-set per
--     candidate, as in V7), takes the picked rows in one UPDATE and writes the claim history
--     (the "expire" row of a lapsed lease taken over, then the "claim" row) in one INSERT.
--   * decide_article reads the desk only for a send-back (the only verdict that needs its limits),
--     writes its history rows in one INSERT, and writes the outcome event last, just before its
--     COMMIT, so the order lock is held for the commit only.
--   * record_outcome (V5) reads the article first and inserts with VALUES (see there).
--   * event_detail: the history's 2,000-character cut, in one place for log_event and the
--     multi-row inserts (log_event is re-created to use it); lease_expiry: a desk's lease length,
--     in one place for the claim's UPDATEs. Both are internal: granted to nobody.

-- [jooq ignore start]

DROP FUNCTION IF EXISTS event_detail;
DROP FUNCTION IF EXISTS lease_expiry;
DROP PROCEDURE IF EXISTS log_event;
DROP PROCEDURE IF EXISTS claim_articles;
DROP PROCEDURE IF EXISTS decide_article;
DROP PROCEDURE IF EXISTS record_outcome;

DELIMITER $$

-- A history row's detail: at most 2,000 characters (the column's size), cut with "...".
CREATE FUNCTION event_detail(p_detail TEXT) RETURNS VARCHAR(2000)
    DETERMINISTIC NO SQL SQL SECURITY DEFINER
    RETURN CASE WHEN CHAR_LENGTH(p_detail) > 2000 THEN CONCAT(LEFT(p_detail, 1997), '...') ELSE p_detail END$$

-- When a lease taken now on an article of p_desk ends: the desk's lease length, capped by p_max_seconds.
CREATE FUNCTION lease_expiry(p_desk VARCHAR(32), p_max_seconds INT, p_now DATETIME(6)) RETURNS DATETIME(6)
    NOT DETERMINISTIC READS SQL DATA SQL SECURITY DEFINER
    RETURN TIMESTAMPADD(SECOND, (SELECT LEAST(lease_seconds, COALESCE(p_max_seconds, lease_seconds)) FROM desk WHERE id = p_desk),
                        p_now)$$

-- Appends one history row. Not granted to anyone.
CREATE PROCEDURE log_event(IN p_row BIGINT, IN p_action VARCHAR(32), IN p_actor VARCHAR(64), IN p_old_owner VARCHAR(64),
                           IN p_new_owner VARCHAR(64), IN p_old_token BIGINT, IN p_token BIGINT, IN p_expires DATETIME(6),
                           IN p_detail TEXT, IN p_now DATETIME(6))
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    INSERT INTO lease_event (occurred_at, resource, row_key, action, actor, old_owner, new_owner, old_token,
                             lease_token, expires_at, detail)
    VALUES (p_now, 'article', CAST(p_row AS CHAR), p_action, p_actor, p_old_owner, p_new_owner, p_old_token,
            p_token, p_expires, event_detail(p_detail));
END$$

-- Get articles / Reload (V4, V7): refreshes every valid lease of the editor to the desk's length
-- (never shorter than it is), then tops up to their capacity from their desks (only p_desks among
-- them, if given) in claim order, free or with a lapsed lease, passing over what they gave back
-- in the last 10 minutes. Results as in V4: server_now, refreshed, claimed, capacity,
-- next_available_at; then the leases refreshed and taken, in that order.
CREATE PROCEDURE claim_articles(IN p_as VARCHAR(64), IN p_desks VARCHAR(2000), IN p_limit INT,
                                IN p_max_lease_seconds INT, IN p_strategy VARCHAR(16))
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_actor VARCHAR(64);
    DECLARE v_now DATETIME(6);
    DECLARE v_capacity INT;
    DECLARE v_desks VARCHAR(4000);
    DECLARE v_want INT DEFAULT 0;
    DECLARE v_refreshed INT DEFAULT 0;
    DECLARE v_claimed INT DEFAULT 0;
    DECLARE v_id BIGINT;
    DECLARE v_owner VARCHAR(64);
    DECLARE v_token BIGINT;
    DECLARE v_scan INT;
    DECLARE v_spread DOUBLE DEFAULT 0; -- OPTIMISTIC: where in the window this claim starts (0 to 1)
    DECLARE v_done INT DEFAULT 0;
    -- the rows picked, in claim order, with the lease each had: [{"id":…,"owner":…,"token":…}, …]
    DECLARE v_picked TEXT DEFAULT '[]';
    DECLARE v_held TEXT; -- the valid leases the editor holds: [id, …]
    DECLARE skipping CURSOR FOR
        SELECT id, locked_by, lease_token FROM article
        WHERE status = 'queued' AND available_at <= v_now AND (locked_by IS NULL OR expires_at <= v_now)
          AND FIND_IN_SET(desk_id, v_desks) > 0
          AND NOT (passed_by <=> v_actor AND passed_until > v_now)
        ORDER BY status, priority, queue_lane, available_at, id LIMIT v_want FOR UPDATE SKIP LOCKED;
    -- BLOCKING and OPTIMISTIC (V7): candidates read without locks, then taken one by one by primary
    -- key. OPTIMISTIC starts at a random place in a wider window so that claimers reading the same
    -- head of the queue do not all queue up on the same rows, and from there goes through the
    -- window in the order of the article ids: every claimer then takes rows in one global order,
    -- so two claims can wait for each other but never in a circle (V7 went round the window from
    -- its starting place; two claimers starting at different places took rows in opposite orders
    -- and deadlocked: 40 deadlocks among 48 claimers on a scratch server, 0 in id order). (The window function
    -- numbers only the rows the inner LIMIT kept: over the whole queue it would read every waiting
    -- article.)
    DECLARE reading CURSOR FOR
        SELECT c.id, c.locked_by, c.lease_token FROM (
            SELECT t.id, t.locked_by, t.lease_token,
                   ROW_NUMBER() OVER (ORDER BY t.priority, t.queue_lane, t.available_at, t.id) AS rn,
                   COUNT(*) OVER () AS n
              FROM (SELECT id, locked_by, lease_token, priority, queue_lane, available_at
                      FROM article
                     WHERE status = 'queued' AND available_at <= v_now
                       AND (locked_by IS NULL OR expires_at <= v_now)
                       AND FIND_IN_SET(desk_id, v_desks) > 0
                       AND NOT (passed_by <=> v_actor AND passed_until > v_now)
                     ORDER BY status, priority, queue_lane, available_at, id LIMIT v_scan) t) c
         WHERE c.rn > FLOOR(v_spread * GREATEST(0, c.n - v_want))
         ORDER BY IF(p_strategy = 'OPTIMISTIC', c.id, c.rn);
    DECLARE CONTINUE HANDLER FOR NOT FOUND SET v_done = 1;
    DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN ROLLBACK; RESIGNAL; END;

    CALL resolve_actor(p_as, 'editor', v_actor);
    IF p_strategy IS NOT NULL AND p_strategy NOT IN ('SKIP_LOCKED', 'BLOCKING', 'OPTIMISTIC') THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: unknown claim strategy';
    END IF;
    IF @@session.innodb_lock_wait_timeout <> 5 THEN
        SET innodb_lock_wait_timeout = 5; -- a statement each call costs; most sessions have it already
    END IF;
    ROLLBACK; -- start clean: a deadlock in an earlier call can leave the session's transaction open
    SET TRANSACTION ISOLATION LEVEL READ COMMITTED;
    START TRANSACTION;
    SET v_now = server_utc_now();
    -- one claim at a time per editor (two windows of the same person cannot both fill up)
    SELECT capacity INTO v_capacity FROM editor WHERE id = v_actor FOR UPDATE;
    SET v_done = 0;
    IF v_capacity IS NULL THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: there is no editor of that name';
    END IF;
    IF @@session.group_concat_max_len < 65535 THEN
        SET SESSION group_concat_max_len = 65535; -- the desk list must not be cut short
    END IF;
    -- SELECT … INTO, not SET v = (SELECT …): InnoDB reads the subquery of a SET with shared locks
    -- (it is not a SELECT statement), and those are held until COMMIT
    SELECT GROUP_CONCAT(desk_id) INTO v_desks FROM editor_desk
     WHERE editor_id = v_actor AND (p_desks IS NULL OR FIND_IN_SET(desk_id, p_desks) > 0);

    -- Reload: every valid lease to the desk's length from now, never past the desk's maximum hold
    -- from the claim, never shorter than it is. The leases are found with a plain read (see v_desks
    -- above) and then locked by primary key only: any lock on a range of ix_article_locked_by also
    -- takes the next editor's first entry, which that editor's decision or claim needs (a deadlock;
    -- measured with an UPDATE over the range: 231 retries in 8 s at 8 editors).
    SELECT JSON_ARRAYAGG(id) INTO v_held FROM article WHERE locked_by = v_actor AND expires_at > v_now;
    IF v_held IS NOT NULL THEN
        UPDATE article a FORCE INDEX (PRIMARY)
          JOIN JSON_TABLE(v_held, '$[*]' COLUMNS (id BIGINT PATH '$')) h ON a.id = h.id
           SET a.expires_at = GREATEST(a.expires_at, LEAST(lease_expiry(a.desk_id, p_max_lease_seconds, v_now),
                   TIMESTAMPADD(SECOND, (SELECT d.max_lease_seconds FROM desk d WHERE d.id = a.desk_id),
                                COALESCE(a.claimed_at, v_now)))),
               a.renewals = a.renewals + 1
         WHERE a.locked_by = v_actor AND a.expires_at > v_now;
        SET v_refreshed = ROW_COUNT();
        INSERT INTO lease_event (occurred_at, resource, row_key, action, actor, old_owner, new_owner, old_token,
                                 lease_token, expires_at, detail)
        SELECT v_now, 'article', CAST(a.id AS CHAR), 'refresh', v_actor, v_actor, v_actor, a.lease_token, a.lease_token,
               a.expires_at, NULL
          FROM article a FORCE INDEX (PRIMARY)
          JOIN JSON_TABLE(v_held, '$[*]' COLUMNS (id BIGINT PATH '$')) h ON a.id = h.id
         WHERE a.locked_by = v_actor AND a.expires_at > v_now
         ORDER BY a.id;
    END IF;

    SET v_want = LEAST(v_capacity, COALESCE(p_limit, v_capacity)) - v_refreshed;
    -- BLOCKING walks past rows other claimers take meanwhile; OPTIMISTIC spreads over 8 batches
    SET v_scan = v_want * IF(p_strategy = 'OPTIMISTIC', 8, 4);
    IF p_strategy = 'OPTIMISTIC' THEN
        SET v_spread = RAND();
    END IF;
    SET v_done = 0;
    IF v_want > 0 AND v_desks IS NOT NULL THEN
        IF p_strategy IN ('OPTIMISTIC', 'BLOCKING') THEN
            OPEN reading;
        ELSE
            OPEN skipping; -- locks the rows it returns (and passes over rows other claims hold)
        END IF;
        pick: LOOP
            IF v_claimed >= v_want THEN LEAVE pick; END IF;
            IF p_strategy IN ('OPTIMISTIC', 'BLOCKING') THEN
                FETCH reading INTO v_id, v_owner, v_token;
            ELSE
                FETCH skipping INTO v_id, v_owner, v_token;
            END IF;
            IF v_done = 1 THEN LEAVE pick; END IF;
            IF p_strategy = 'BLOCKING' THEN
                -- the classic locking read, by primary key (V7): waits while another claim takes the
                -- row, then sees whether it is still free; one row at a time in claim order and never
                -- on the claim index, so a claim and a decision cannot deadlock
                SET v_token = NULL;
                SELECT lease_token, locked_by INTO v_token, v_owner FROM article
                 WHERE id = v_id AND status = 'queued' AND (locked_by IS NULL OR expires_at <= v_now) FOR UPDATE;
                SET v_done = 0;
                IF v_token IS NULL THEN
                    ITERATE pick; -- taken meanwhile
                END IF;
            ELSEIF p_strategy = 'OPTIMISTIC' THEN
                -- the compare-and-set on the token read without a lock; it fails if anyone took the row
                UPDATE article
                   SET locked_by = v_actor, expires_at = lease_expiry(desk_id, p_max_lease_seconds, v_now),
                       lease_token = lease_token + 1, queue_lane = 0, claimed_at = v_now, renewals = 0,
                       passed_by = NULL, passed_until = NULL
                 WHERE id = v_id AND lease_token = v_token AND status = 'queued'
                   AND (locked_by IS NULL OR expires_at <= v_now);
                IF ROW_COUNT() = 0 THEN
                    ITERATE pick;
                END IF;
            END IF;
            SET v_picked = JSON_ARRAY_APPEND(v_picked, '$', JSON_OBJECT('id', v_id, 'owner', COALESCE(v_owner, ''), 'token', v_token));
            SET v_claimed = v_claimed + 1;
        END LOOP;
        IF p_strategy IN ('OPTIMISTIC', 'BLOCKING') THEN
            CLOSE reading;
        ELSE
            CLOSE skipping;
        END IF;
    END IF;
    IF v_claimed > 0 THEN
        IF p_strategy IS NULL OR p_strategy <> 'OPTIMISTIC' THEN
            -- the picked rows are locked by this transaction and free or lapsed: all are taken
            UPDATE article a FORCE INDEX (PRIMARY)
              JOIN JSON_TABLE(v_picked, '$[*]' COLUMNS (id BIGINT PATH '$.id')) p ON a.id = p.id
               SET a.locked_by = v_actor, a.expires_at = lease_expiry(a.desk_id, p_max_lease_seconds, v_now),
                   a.lease_token = a.lease_token + 1, a.queue_lane = 0, a.claimed_at = v_now, a.renewals = 0,
                   a.passed_by = NULL, a.passed_until = NULL;
        END IF;
        -- history in claim order: a lapsed lease taken over ends ("expire"), then the claim
        INSERT INTO lease_event (occurred_at, resource, row_key, action, actor, old_owner, new_owner, old_token,
                                 lease_token, expires_at, detail)
        SELECT v_now, 'article', CAST(a.id AS CHAR), IF(e.step = 1, 'expire', 'claim'), v_actor, NULLIF(p.owner, ''),
               IF(e.step = 1, NULL, v_actor), p.token, IF(e.step = 1, NULL, a.lease_token),
               IF(e.step = 1, NULL, a.expires_at), IF(e.step = 1, CONCAT('lapsed lease taken over by ', v_actor), NULL)
          FROM JSON_TABLE(v_picked, '$[*]' COLUMNS (ord FOR ORDINALITY, id BIGINT PATH '$.id', owner VARCHAR(64) PATH '$.owner',
                                                    token BIGINT PATH '$.token')) p
          JOIN article a FORCE INDEX (PRIMARY) ON a.id = p.id
          JOIN (SELECT 1 AS step UNION ALL SELECT 2) e ON e.step = 2 OR p.owner <> ''
         ORDER BY p.ord, e.step;
    END IF;
    UPDATE editor SET last_seen_at = v_now WHERE id = v_actor;
    COMMIT;

    SELECT v_now AS server_now, v_refreshed AS refreshed, v_claimed AS claimed, v_capacity AS capacity,
           CASE WHEN v_refreshed + v_claimed < v_capacity THEN
               (SELECT MIN(a.available_at) FROM editor_desk ed
                  JOIN article a ON a.desk_id = ed.desk_id AND a.status = 'queued' AND a.available_at > v_now
                 WHERE ed.editor_id = v_actor AND FIND_IN_SET(ed.desk_id, v_desks) > 0)
           END AS next_available_at;
    -- what was refreshed (by id), then what was taken, in claim order
    SELECT a.id, a.external_id, a.desk_id, a.title, a.byline, a.priority, a.attempts, a.available_at, a.locked_by,
           a.lease_token, a.expires_at, v_now AS server_now
      FROM article a
      LEFT JOIN JSON_TABLE(v_picked, '$[*]' COLUMNS (ord FOR ORDINALITY, id BIGINT PATH '$.id')) p ON p.id = a.id
     WHERE a.locked_by = v_actor AND a.expires_at > v_now
     ORDER BY p.ord IS NOT NULL, p.ord, a.id;
END$$

-- The outcome event of a decision or requeue (V5), written as a plain INSERT … VALUES: V5's
-- INSERT … SELECT FROM article took 0.35-0.4 ms against 0.04 ms (measured, 4,000 of each on MariaDB
-- 11.4), and all of it inside the order lock below, where every decision waits its turn.
CREATE PROCEDURE record_outcome(IN p_key CHAR(36), IN p_outcome VARCHAR(32), IN p_article BIGINT, IN p_actor VARCHAR(64),
                                IN p_verdict VARCHAR(16), IN p_notes TEXT, IN p_token BIGINT, IN p_returns DATETIME(6),
                                IN p_now DATETIME(6))
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_external VARCHAR(128);
    DECLARE v_desk VARCHAR(32);
    DECLARE v_status VARCHAR(16);
    DECLARE v_attempts INT;
    SELECT external_id, desk_id, status, attempts INTO v_external, v_desk, v_status, v_attempts
      FROM article WHERE id = p_article;
    -- held until the caller commits: cursors in commit order (see outcome_order, V5)
    UPDATE outcome_order SET last_event = p_now WHERE id = 1;
    INSERT INTO outcome_event (idempotency_key, outcome, article_id, external_id, desk_id, editor_id, verdict, notes,
                               article_status, send_backs, returns_at, lease_token, decided_at, next_attempt_at)
    VALUES (p_key, p_outcome, p_article, v_external, v_desk, p_actor, p_verdict, COALESCE(p_notes, ''), v_status,
            v_attempts, p_returns, p_token, p_now, p_now);
END$$

-- decide_article as in V9, in fewer statements (see the top of this file).
CREATE PROCEDURE decide_article(IN p_as VARCHAR(64), IN p_article BIGINT, IN p_token BIGINT, IN p_request CHAR(36),
                                IN p_verdict VARCHAR(16), IN p_notes TEXT)
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_actor VARCHAR(64);
    DECLARE v_now DATETIME(6);
    DECLARE v_status VARCHAR(16);
    DECLARE v_owner VARCHAR(64);
    DECLARE v_token BIGINT;
    DECLARE v_desk VARCHAR(32);
    DECLARE v_attempts INT;
    DECLARE v_revision INT;
    DECLARE v_held_revision INT;
    DECLARE v_max_send_backs INT;
    DECLARE v_delay BIGINT;
    DECLARE v_waits INT;
    DECLARE v_new_status VARCHAR(16);
    DECLARE v_returns DATETIME(6) DEFAULT NULL;
    DECLARE v_quarantine INT DEFAULT 0;
    DECLARE v_earlier_article BIGINT DEFAULT NULL;
    DECLARE v_earlier_verdict VARCHAR(16);
    DECLARE v_has_draft INT DEFAULT 0;
    DECLARE CONTINUE HANDLER FOR NOT FOUND BEGIN END; -- no such row: the variables stay NULL
    DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN ROLLBACK; RESIGNAL; END;

    CALL resolve_actor(p_as, 'editor', v_actor);
    IF p_verdict IS NULL OR p_verdict NOT IN ('approve', 'reject', 'send_back', 'unreviewable') THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: a decision is approve, reject, send_back or unreviewable';
    END IF;
    IF p_verdict <> 'approve' AND TRIM(COALESCE(p_notes, '')) = '' THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: this decision needs notes that say why';
    END IF;
    IF CHAR_LENGTH(p_notes) > 60000 THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: the notes are longer than 60,000 characters';
    END IF;
    IF p_request IS NULL OR CHAR_LENGTH(p_request) <> 36 THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: a decision needs its request id';
    END IF;
    IF @@session.innodb_lock_wait_timeout <> 5 THEN
        SET innodb_lock_wait_timeout = 5; -- a statement each call costs; most sessions have it already
    END IF;
    ROLLBACK; -- start clean: a deadlock in an earlier call can leave the session's transaction open
    SET TRANSACTION ISOLATION LEVEL READ COMMITTED;
    START TRANSACTION;
    SET v_now = server_utc_now();
    -- the lease, and whether the editor left a draft (deleted with the decision)
    SELECT status, locked_by, lease_token, desk_id, attempts, revision, held_revision,
           EXISTS (SELECT 1 FROM review_draft r WHERE r.article_id = p_article AND r.editor_id = v_actor)
      INTO v_status, v_owner, v_token, v_desk, v_attempts, v_revision, v_held_revision, v_has_draft
      FROM article WHERE id = p_article FOR UPDATE;
    IF v_desk IS NULL OR v_owner IS NULL OR v_owner <> v_actor OR v_token <> p_token OR v_status <> 'queued' THEN
        -- a decision sent again (the answer to the first was lost) finds its article decided:
        -- the first one's outcome, by request id, is the answer
        SELECT article_id, verdict INTO v_earlier_article, v_earlier_verdict FROM decision WHERE request_id = p_request;
    END IF;
    IF v_earlier_article IS NOT NULL THEN
        COMMIT;
        SELECT 'already' AS outcome, v_earlier_article AS article_id, v_earlier_verdict AS verdict, NULL AS status,
               NULL AS returns_at, 0 AS quarantined;
    ELSEIF v_desk IS NULL THEN
        COMMIT;
        SELECT 'gone' AS outcome, p_article AS article_id, p_verdict AS verdict, NULL AS status, NULL AS returns_at,
               0 AS quarantined;
    ELSEIF v_owner IS NULL OR v_owner <> v_actor OR v_token <> p_token OR v_status <> 'queued' THEN
        COMMIT;
        SELECT 'lost' AS outcome, p_article AS article_id, p_verdict AS verdict, NULL AS status, NULL AS returns_at,
               0 AS quarantined;
    ELSEIF COALESCE(v_held_revision, v_revision) <> v_revision THEN
        -- V9: a newer revision arrived while the editor read; their notes wait as a draft
        INSERT INTO review_draft (article_id, editor_id, verdict, notes, saved_at)
        VALUES (p_article, v_actor, p_verdict, COALESCE(p_notes, ''), v_now)
        ON DUPLICATE KEY UPDATE verdict = VALUES(verdict), notes = VALUES(notes), saved_at = VALUES(saved_at);
        COMMIT;
        SELECT 'outdated' AS outcome, p_article AS article_id, p_verdict AS verdict, NULL AS status, NULL AS returns_at,
               0 AS quarantined;
    ELSE
        CASE p_verdict
            WHEN 'approve' THEN SET v_new_status = 'approved';
            WHEN 'reject' THEN SET v_new_status = 'rejected';
            WHEN 'unreviewable' THEN SET v_new_status = 'quarantined';
            ELSE
                SELECT max_send_backs, send_back_delay_seconds, send_back_waits_for_writer
                  INTO v_max_send_backs, v_delay, v_waits FROM desk WHERE id = v_desk;
                SET v_attempts = v_attempts + 1;
                IF v_attempts > v_max_send_backs THEN
                    SET v_new_status = 'quarantined';
                    SET v_quarantine = 1;
                ELSEIF v_waits = 1 THEN
                    -- V9: changes requested: waits for the writer's revision, no timer
                    SET v_new_status = 'awaiting_writer';
                ELSE
                    SET v_new_status = 'queued';
                    -- the first delay, doubled for each further send-back, at most two days
                    SET v_returns = TIMESTAMPADD(SECOND,
                            CAST(LEAST(172800, v_delay * POW(2, LEAST(v_attempts - 1, 20))) AS SIGNED), v_now);
                END IF;
        END CASE;
        UPDATE article
           SET status = v_new_status, attempts = v_attempts, locked_by = NULL, expires_at = NULL,
               available_at = COALESCE(v_returns, available_at), updated_at = v_now,
               decided_by = IF(v_new_status = 'queued', NULL, v_actor),
               decided_at = IF(v_new_status = 'queued', NULL, v_now),
               decision_note = p_notes
         WHERE id = p_article;
        -- history: the lease ends, the verdict, and a quarantine past the desk's send-back limit
        INSERT INTO lease_event (occurred_at, resource, row_key, action, actor, old_owner, new_owner, old_token,
                                 lease_token, expires_at, detail)
        VALUES (v_now, 'article', CAST(p_article AS CHAR), 'complete', v_actor, v_actor, NULL, p_token, NULL, NULL, p_verdict),
               (v_now, 'article', CAST(p_article AS CHAR), p_verdict, v_actor, NULL, NULL, NULL, NULL, NULL,
                event_detail(p_notes));
        IF v_quarantine = 1 THEN
            CALL log_event(p_article, 'quarantine', v_actor, NULL, NULL, NULL, NULL, NULL,
                           CONCAT('sent back more than ', v_max_send_backs, ' times'), v_now);
        END IF;
        INSERT INTO decision (request_id, article_id, editor_id, verdict, notes, lease_token, decided_at, revision)
        VALUES (p_request, p_article, v_actor, p_verdict, COALESCE(p_notes, ''), p_token, v_now, v_revision);
        IF v_has_draft THEN
            DELETE FROM review_draft WHERE article_id = p_article AND editor_id = v_actor;
        END IF;
        -- V5: the outcome goes out with the decision, in the same transaction. Last, because it
        -- takes the feed's order lock (V5, outcome_order), which every decision needs until it commits.
        CALL record_outcome(p_request, CASE p_verdict WHEN 'approve' THEN 'approved' WHEN 'reject' THEN 'rejected'
                                       WHEN 'send_back' THEN 'changes_requested' ELSE 'unreviewable' END,
                            p_article, v_actor, p_verdict, p_notes, p_token, v_returns, v_now);
        COMMIT;
        SELECT 'recorded' AS outcome, p_article AS article_id, p_verdict AS verdict, v_new_status AS status,
               v_returns AS returns_at, v_quarantine AS quarantined;
    END IF;
END$$

DELIMITER ;

-- Recreating a routine drops its grants: give each role its grants again.
CALL regrant_accounts();

-- [jooq ignore stop]
