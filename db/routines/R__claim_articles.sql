DROP PROCEDURE IF EXISTS claim_articles;

DELIMITER $$

-- Get articles / Reload, in one call: refreshes every valid lease of the editor to the desk's
-- length (never shorter than it is, never past the desk's maximum hold), then tops up to their
-- capacity with articles from their desks (only p_desks among them, if given: a comma-separated
-- list) in claim order, free or with a lapsed lease, passing over what they gave back in the last
-- 10 minutes, what a supervisor keeps from them (kept_from: set by a force release or a
-- reassignment away) and what a supervisor holds (held_at). p_limit caps the batch (NULL: the
-- capacity), p_max_lease_seconds caps the lease (NULL: the desk's).
-- p_strategy: SKIP_LOCKED (default: a locking read that passes over rows other claims are
-- taking), BLOCKING (candidates read without locks, then locked one by one by primary key, waiting
-- for a row another claim is taking), OPTIMISTIC (no locking read; each take is a compare-and-set
-- on the lease token, for multi-writer clusters).
-- Result 1: server_now, refreshed, claimed, capacity, next_available_at (only when the editor holds
-- less than their capacity). Result 2: the leases refreshed (by id), then those taken (in claim
-- order), with what the editor's list shows.
--
-- Every row is taken as it is picked, by one UPDATE by primary key with the compare-and-set's
-- conditions, and the history rows are written once all rows are taken, one INSERT ... VALUES each
-- (an INSERT ... SELECT, or a JSON_TABLE join, costs a fixed amount more than five single-row
-- inserts; docs/benchmarks.md). The refresh of held leases is one UPDATE over them: the new end
-- depends on values read under each row's lock, which the UPDATE computes itself.
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
    DECLARE v_desk VARCHAR(32); -- the desk of the row picked, for its lease length
    DECLARE v_expires DATETIME(6); -- when the lease taken on it ends
    DECLARE v_taken TEXT; -- the ids taken, in claim order: "id,id,…"
    -- the rows taken, in claim order, with the lease each had and the new lease's end:
    -- [[id, old owner or "", old token, new end], …]
    DECLARE v_picked TEXT DEFAULT '[]';
    DECLARE v_logged INT DEFAULT 0; -- how many of them have their history rows
    DECLARE v_next DATETIME(6); -- when the next article on the editor's desks becomes available (if not full)
    DECLARE v_held TEXT; -- the valid leases the editor holds: [id, …]
    -- SKIP_LOCKED while a lapsed lease waits to be taken over: ix_article_claim, free and lapsed rows
    -- alike. A held article stays 'queued' until its decision, so the rows held right now sit at the
    -- head of each priority there and this scan walks past them.
    DECLARE skipping CURSOR FOR
        SELECT id, locked_by, lease_token, desk_id FROM article
        WHERE status = 'queued' AND available_at <= v_now AND (locked_by IS NULL OR expires_at <= v_now)
          AND FIND_IN_SET(desk_id, v_desks) > 0
          AND NOT (passed_by <=> v_actor AND passed_until > v_now)
          AND NOT (kept_from <=> v_actor) AND held_at IS NULL
        ORDER BY status, priority, queue_lane, available_at, id LIMIT v_want FOR UPDATE SKIP LOCKED;
    -- SKIP_LOCKED while no lease has lapsed (nearly always: the release service frees lapsed
    -- leases): free rows only, from ix_article_free (free rows first within 'queued', in claim
    -- order), where the held rows are not in the way.
    DECLARE skipping_free CURSOR FOR
        SELECT id, locked_by, lease_token, desk_id FROM article FORCE INDEX (ix_article_free)
        WHERE status = 'queued' AND locked_by IS NULL AND available_at <= v_now
          AND FIND_IN_SET(desk_id, v_desks) > 0
          AND NOT (passed_by <=> v_actor AND passed_until > v_now)
          AND NOT (kept_from <=> v_actor) AND held_at IS NULL
        -- (not "ORDER BY status, locked_by, …": MySQL 8 does not count IS NULL as a constant there,
        -- sorts, and a sorting locking read locks every free row it sorts)
        ORDER BY priority, queue_lane, available_at, id LIMIT v_want FOR UPDATE SKIP LOCKED;
    -- BLOCKING and OPTIMISTIC: candidates read without locks, then taken one by one by primary
    -- key (a locking scan of the claim index locks index entries and then waits for the rows behind
    -- them, while a decision holds its row and then updates the same entries: the two deadlocked).
    -- OPTIMISTIC starts at a random place in a window of 8 batches so that claimers reading the same
    -- head of the queue do not all queue up on the same rows, and from there goes through the
    -- window in the order of the article ids: every claimer then takes rows in one global order,
    -- so two claims can wait for each other but never in a circle (going round the window from the
    -- starting place instead, two claimers starting at different places took rows in opposite
    -- orders and deadlocked: 40 deadlocks among 48 claimers on a scratch server, 0 in id order).
    -- (The window function numbers only the rows the inner LIMIT kept: over the whole queue it
    -- would read every waiting article.)
    DECLARE reading CURSOR FOR
        SELECT c.id, c.locked_by, c.lease_token, c.desk_id FROM (
            SELECT t.id, t.locked_by, t.lease_token, t.desk_id,
                   ROW_NUMBER() OVER (ORDER BY t.priority, t.queue_lane, t.available_at, t.id) AS rn,
                   COUNT(*) OVER () AS n
              FROM (SELECT id, locked_by, lease_token, desk_id, priority, queue_lane, available_at
                      FROM article
                     WHERE status = 'queued' AND available_at <= v_now
                       AND (locked_by IS NULL OR expires_at <= v_now)
                       AND FIND_IN_SET(desk_id, v_desks) > 0
                       AND NOT (passed_by <=> v_actor AND passed_until > v_now)
                       AND NOT (kept_from <=> v_actor) AND held_at IS NULL
                     ORDER BY status, priority, queue_lane, available_at, id LIMIT v_scan) t) c
         WHERE c.rn > FLOOR(v_spread * GREATEST(0, c.n - v_want))
         ORDER BY IF(p_strategy = 'OPTIMISTIC', c.id, c.rn);
    DECLARE CONTINUE HANDLER FOR NOT FOUND SET v_done = 1;
    DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN CALL operation_fails(); RESIGNAL; END;

    CALL operation_begins();
    CALL resolve_actor(p_as, 'editor', v_actor);
    IF p_strategy IS NOT NULL AND p_strategy NOT IN ('SKIP_LOCKED', 'BLOCKING', 'OPTIMISTIC') THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: unknown claim strategy';
    END IF;
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
                                 lease_token, expires_at, detail, acted_by)
        SELECT v_now, 'article', CAST(a.id AS CHAR), 'refresh', v_actor, v_actor, v_actor, a.lease_token, a.lease_token,
               a.expires_at, NULL, acted_by(v_actor)
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
                FETCH reading INTO v_id, v_owner, v_token, v_desk;
            ELSEIF v_lapsed = 0 THEN
                FETCH skipping_free INTO v_id, v_owner, v_token, v_desk;
            ELSE
                FETCH skipping INTO v_id, v_owner, v_token, v_desk;
            END IF;
            IF v_done = 1 THEN LEAVE pick; END IF;
            IF p_strategy = 'BLOCKING' THEN
                -- the classic locking read, by primary key: waits while another claim takes the
                -- row, then sees whether it is still free; one row at a time in claim order and never
                -- on the claim index, so a claim and a decision cannot deadlock
                SET v_token = NULL;
                SELECT lease_token, locked_by INTO v_token, v_owner FROM article
                 WHERE id = v_id AND status = 'queued' AND (locked_by IS NULL OR expires_at <= v_now) FOR UPDATE;
                SET v_done = 0;
                IF v_token IS NULL THEN
                    ITERATE pick; -- taken meanwhile
                END IF;
            END IF;
            -- Take it. SKIP_LOCKED and BLOCKING hold the row's lock, so the token they read is its
            -- token; for OPTIMISTIC this is the compare-and-set on the token read without a lock,
            -- which fails if anyone took the row meanwhile. (An article's desk never changes.)
            SET v_expires = lease_expiry(v_desk, p_max_lease_seconds, v_now);
            UPDATE article
               SET locked_by = v_actor, expires_at = v_expires, lease_token = v_token + 1, queue_lane = 0,
                   claimed_at = v_now, renewals = 0, passed_by = NULL, passed_until = NULL
             WHERE id = v_id AND lease_token = v_token AND status = 'queued'
               AND (locked_by IS NULL OR expires_at <= v_now)
               AND NOT (kept_from <=> v_actor) AND held_at IS NULL; -- a keep or hold set since the read
            IF ROW_COUNT() = 0 THEN
                ITERATE pick;
            END IF;
            SET v_picked = JSON_ARRAY_APPEND(v_picked, '$', JSON_ARRAY(v_id, COALESCE(v_owner, ''), v_token,
                                                                        DATE_FORMAT(v_expires, '%Y-%m-%d %H:%i:%s.%f')));
            SET v_taken = CONCAT_WS(',', v_taken, v_id);
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
    -- History in claim order, once every row is taken: a lapsed lease taken over ends ("expire"),
    -- then the claim. After the loop, so that no statement runs between one compare-and-set and
    -- the next (written inside the loop, OPTIMISTIC's tail at 64 editors looked worse in the claim
    -- benchmark, though too noisy to be sure).
    -- (JSON_EXTRACT, not JSON_VALUE: MySQL's JSON_VALUE takes only a literal path.)
    WHILE v_logged < v_claimed DO
        SET v_id = JSON_UNQUOTE(JSON_EXTRACT(v_picked, CONCAT('$[', v_logged, '][0]')));
        SET v_owner = NULLIF(JSON_UNQUOTE(JSON_EXTRACT(v_picked, CONCAT('$[', v_logged, '][1]'))), '');
        SET v_token = JSON_UNQUOTE(JSON_EXTRACT(v_picked, CONCAT('$[', v_logged, '][2]')));
        SET v_expires = JSON_UNQUOTE(JSON_EXTRACT(v_picked, CONCAT('$[', v_logged, '][3]')));
        IF v_owner IS NOT NULL THEN
            INSERT INTO lease_event (occurred_at, resource, row_key, action, actor, old_owner, new_owner, old_token,
                                     lease_token, expires_at, detail, acted_by)
            VALUES (v_now, 'article', CAST(v_id AS CHAR), 'expire', v_actor, v_owner, NULL, v_token, NULL, NULL,
                    CONCAT('lapsed lease taken over by ', v_actor), acted_by(v_actor));
        END IF;
        INSERT INTO lease_event (occurred_at, resource, row_key, action, actor, old_owner, new_owner, old_token,
                                 lease_token, expires_at, detail, acted_by)
        VALUES (v_now, 'article', CAST(v_id AS CHAR), 'claim', v_actor, v_owner, v_actor, v_token, v_token + 1,
                v_expires, NULL, acted_by(v_actor));
        SET v_logged = v_logged + 1;
    END WHILE;
    UPDATE editor SET last_seen_at = v_now WHERE id = v_actor;
    COMMIT;

    IF v_refreshed + v_claimed < v_capacity THEN
        SELECT MIN(a.available_at) INTO v_next FROM editor_desk ed
          JOIN article a ON a.desk_id = ed.desk_id AND a.status = 'queued' AND a.available_at > v_now AND a.held_at IS NULL
         WHERE ed.editor_id = v_actor AND FIND_IN_SET(ed.desk_id, v_desks) > 0;
    END IF;
    SELECT v_now AS server_now, v_refreshed AS refreshed, v_claimed AS claimed, v_capacity AS capacity,
           v_next AS next_available_at;
    -- what was refreshed (by id), then what was taken, in claim order
    SELECT a.id, a.external_id, a.desk_id, a.title, a.byline, a.priority, a.attempts, a.available_at, a.locked_by,
           a.lease_token, a.expires_at, v_now AS server_now
      FROM article a
     WHERE a.locked_by = v_actor AND a.expires_at > v_now
     ORDER BY FIND_IN_SET(a.id, v_taken) > 0, FIND_IN_SET(a.id, v_taken), a.id;
END$$

DELIMITER ;
