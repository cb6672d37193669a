-- Issue 14: a claim no longer walks past every lease held right now.
--
-- ix_article_claim (V1) orders the waiting articles as claims take them, and a held article stays
-- 'queued' until its decision: the rows held sit at the head of the queue, editors x capacity of
-- them (320 with 64 editors of 5), and every SKIP_LOCKED claim walked them, each with a look-up of
-- the article and a check for another transaction's lock on it. Profiled on the embedded server
-- with 8 editors (perf, docs/benchmarks.md), opening that cursor was 18 % of the server's CPU, 14 %
-- in those lock checks; the bare baseline's claim, the same statement, lost 20 % from 8 to 64.
--
-- ix_article_free puts the free rows first within 'queued' (NULL sorts first), in claim order, so
-- a claim reads free rows only. A lapsed lease (held, but past its end) is free to take over too;
-- it is rare, because the release service frees lapsed leases, so a claim first looks for one on
-- ix_article_expires (a plain read of a short range) and, if there is one, walks
-- ix_article_claim as before. BLOCKING and OPTIMISTIC read their candidates without locks and are
-- unchanged.

CREATE INDEX ix_article_free ON article (status, locked_by, priority, queue_lane, available_at, id);

-- [jooq ignore start]

DROP PROCEDURE IF EXISTS claim_articles;

DELIMITER $$

-- Get articles / Reload (V4, V7, V12): refreshes every valid lease of the editor to the desk's length
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
    DECLARE v_lapsed INT DEFAULT 0; -- a lapsed lease waits to be taken over on the editor's desks
    -- the rows picked, in claim order, with the lease each had: [{"id":…,"owner":…,"token":…}, …]
    DECLARE v_picked TEXT DEFAULT '[]';
    DECLARE v_held TEXT; -- the valid leases the editor holds: [id, …]
    DECLARE skipping CURSOR FOR
        SELECT id, locked_by, lease_token FROM article
        WHERE status = 'queued' AND available_at <= v_now AND (locked_by IS NULL OR expires_at <= v_now)
          AND FIND_IN_SET(desk_id, v_desks) > 0
          AND NOT (passed_by <=> v_actor AND passed_until > v_now)
        ORDER BY status, priority, queue_lane, available_at, id LIMIT v_want FOR UPDATE SKIP LOCKED;
    -- SKIP_LOCKED while no lease has lapsed (nearly always: the release service frees lapsed
    -- leases): free rows only, from ix_article_free, where the held rows are not in the way.
    DECLARE skipping_free CURSOR FOR
        SELECT id, locked_by, lease_token FROM article FORCE INDEX (ix_article_free)
        WHERE status = 'queued' AND locked_by IS NULL AND available_at <= v_now
          AND FIND_IN_SET(desk_id, v_desks) > 0
          AND NOT (passed_by <=> v_actor AND passed_until > v_now)
        -- (not "ORDER BY status, locked_by, …": MySQL 8 does not count IS NULL as a constant there,
        -- sorts, and a sorting locking read locks every free row it sorts)
        ORDER BY priority, queue_lane, available_at, id LIMIT v_want FOR UPDATE SKIP LOCKED;
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
    IF v_want > 0 AND v_desks IS NOT NULL AND (p_strategy IS NULL OR p_strategy = 'SKIP_LOCKED') THEN
        -- a plain read of ix_article_expires: only lapsed leases are in its range
        SELECT EXISTS (SELECT 1 FROM article FORCE INDEX (ix_article_expires)
                        WHERE expires_at <= v_now AND status = 'queued' AND FIND_IN_SET(desk_id, v_desks) > 0)
          INTO v_lapsed;
    END IF;
    SET v_done = 0;
    IF v_want > 0 AND v_desks IS NOT NULL THEN
        IF p_strategy IN ('OPTIMISTIC', 'BLOCKING') THEN
            OPEN reading;
        ELSEIF v_lapsed = 0 THEN
            OPEN skipping_free; -- locks the rows it returns (and passes over rows other claims lock)
        ELSE
            OPEN skipping; -- free and lapsed rows alike, past the rows held
        END IF;
        pick: LOOP
            IF v_claimed >= v_want THEN LEAVE pick; END IF;
            IF p_strategy IN ('OPTIMISTIC', 'BLOCKING') THEN
                FETCH reading INTO v_id, v_owner, v_token;
            ELSEIF v_lapsed = 0 THEN
                FETCH skipping_free INTO v_id, v_owner, v_token;
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
        ELSEIF v_lapsed = 0 THEN
            CLOSE skipping_free;
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

DELIMITER ;

-- Recreating a routine drops its grants: give each role its grants again.
CALL regrant_accounts();

-- [jooq ignore stop]
