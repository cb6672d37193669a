-- Issue 14 and 17: the claim without a locking scan for BLOCKING, OPTIMISTIC spread over a wider
-- window, and "release means not me".
--
-- BLOCKING used a locking scan of the claim index (SELECT ... FOR UPDATE in claim order). That scan
-- locks index entries and then waits for the article rows behind them, while a decision holds its
-- article row and then updates the same entries: under load the two deadlocked until the bounded
-- retries ran out and editors saw "the database is busy". Now BLOCKING reads its candidates without
-- locks and locks each one by primary key (waiting, as the classic strategy does, for a row another
-- claim is taking), so every lock order is the same.
--
-- OPTIMISTIC read the same 4 batches as every other claimer and took them from the head, so under
-- contention every claimer queued behind the others on the same rows. It now reads 8 batches and
-- starts at a random place among them: claim order is kept within a window of 8 batches. (Passing
-- over rows other claims were taking, with SKIP LOCKED, was tried and measured: it removed the
-- deadlocks between claimers but let claims and decisions wait on each other for seconds at 32
-- and 64 editors: 72 and 17 rows/s against 262 and 114.)
--
-- Release means "not me": an article an editor gives back is not handed to them again by their next
-- claims for 10 minutes, or until someone else has claimed it (passed_by/passed_until).

ALTER TABLE article ADD COLUMN passed_by VARCHAR(64) NULL;
ALTER TABLE article ADD COLUMN passed_until DATETIME(6) NULL;

-- [jooq ignore start]

DROP PROCEDURE IF EXISTS claim_articles;
DROP PROCEDURE IF EXISTS release_article;

DELIMITER $$

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
    DECLARE v_desk VARCHAR(32);
    DECLARE v_owner VARCHAR(64);
    DECLARE v_token BIGINT;
    DECLARE v_claimed_at DATETIME(6);
    DECLARE v_expires DATETIME(6);
    DECLARE v_lease INT;
    DECLARE v_max INT;
    DECLARE v_scan INT;
    DECLARE v_offset INT DEFAULT 0;
    DECLARE v_taken INT;
    DECLARE v_done INT DEFAULT 0;
    DECLARE v_order TEXT DEFAULT '[]';
    DECLARE own CURSOR FOR
        SELECT id, desk_id, lease_token, claimed_at, expires_at FROM article
        WHERE locked_by = v_actor AND expires_at > v_now FOR UPDATE;
    DECLARE skipping CURSOR FOR
        SELECT id, desk_id, locked_by, lease_token FROM article
        WHERE status = 'queued' AND available_at <= v_now AND (locked_by IS NULL OR expires_at <= v_now)
          AND FIND_IN_SET(desk_id, v_desks) > 0
          AND NOT (passed_by <=> v_actor AND passed_until > v_now)
        ORDER BY status, priority, queue_lane, available_at, id LIMIT v_want FOR UPDATE SKIP LOCKED;
    -- BLOCKING and OPTIMISTIC: candidates read without locks, then taken one by one by primary key.
    -- OPTIMISTIC starts at a random place in a wider window so that claimers reading the same
    -- head of the queue do not all queue up on the same rows.
    -- (the window function numbers only the rows the inner LIMIT kept: over the whole queue it
    -- would read every waiting article)
    DECLARE reading CURSOR FOR
        SELECT c.id, c.desk_id, c.locked_by, c.lease_token FROM (
            SELECT t.id, t.desk_id, t.locked_by, t.lease_token,
                   ROW_NUMBER() OVER (ORDER BY t.priority, t.queue_lane, t.available_at, t.id) AS rn
              FROM (SELECT id, desk_id, locked_by, lease_token, priority, queue_lane, available_at
                      FROM article
                     WHERE status = 'queued' AND available_at <= v_now
                       AND (locked_by IS NULL OR expires_at <= v_now)
                       AND FIND_IN_SET(desk_id, v_desks) > 0
                       AND NOT (passed_by <=> v_actor AND passed_until > v_now)
                     ORDER BY status, priority, queue_lane, available_at, id LIMIT v_scan) t) c
         ORDER BY MOD(c.rn - 1 + v_offset, v_scan);
    DECLARE CONTINUE HANDLER FOR NOT FOUND SET v_done = 1;
    DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN ROLLBACK; RESIGNAL; END;

    CALL resolve_actor(p_as, 'editor', v_actor);
    IF p_strategy IS NOT NULL AND p_strategy NOT IN ('SKIP_LOCKED', 'BLOCKING', 'OPTIMISTIC') THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: unknown claim strategy';
    END IF;
    SET innodb_lock_wait_timeout = 5;
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
    SET v_desks = (SELECT GROUP_CONCAT(desk_id) FROM editor_desk
                   WHERE editor_id = v_actor AND (p_desks IS NULL OR FIND_IN_SET(desk_id, p_desks) > 0));

    OPEN own;
    refresh: LOOP
        FETCH own INTO v_id, v_desk, v_token, v_claimed_at, v_expires;
        IF v_done = 1 THEN LEAVE refresh; END IF;
        SELECT lease_seconds, max_lease_seconds INTO v_lease, v_max FROM desk WHERE id = v_desk;
        SET v_lease = LEAST(v_lease, COALESCE(p_max_lease_seconds, v_lease));
        SET v_expires = GREATEST(v_expires, LEAST(TIMESTAMPADD(SECOND, v_lease, v_now),
                                                  TIMESTAMPADD(SECOND, v_max, COALESCE(v_claimed_at, v_now))));
        UPDATE article SET expires_at = v_expires, renewals = renewals + 1 WHERE id = v_id;
        CALL log_event(v_id, 'refresh', v_actor, v_actor, v_actor, v_token, v_token, v_expires, NULL, v_now);
        SET v_order = JSON_ARRAY_APPEND(v_order, '$', v_id);
        SET v_refreshed = v_refreshed + 1;
    END LOOP;
    CLOSE own;

    SET v_want = LEAST(v_capacity, COALESCE(p_limit, v_capacity)) - v_refreshed;
    -- BLOCKING walks past rows other claimers take meanwhile; OPTIMISTIC spreads over 8 batches
    SET v_scan = v_want * IF(p_strategy = 'OPTIMISTIC', 8, 4);
    IF p_strategy = 'OPTIMISTIC' THEN
        SET v_offset = FLOOR(RAND() * v_scan);
    END IF;
    SET v_done = 0;
    IF v_want > 0 AND v_desks IS NOT NULL THEN
        IF p_strategy IN ('OPTIMISTIC', 'BLOCKING') THEN
            OPEN reading;
        ELSE
            OPEN skipping;
        END IF;
        take: LOOP
            IF v_claimed >= v_want THEN LEAVE take; END IF;
            IF p_strategy IN ('OPTIMISTIC', 'BLOCKING') THEN
                FETCH reading INTO v_id, v_desk, v_owner, v_token;
            ELSE
                FETCH skipping INTO v_id, v_desk, v_owner, v_token;
            END IF;
            IF v_done = 1 THEN LEAVE take; END IF;
            IF p_strategy = 'BLOCKING' THEN
                -- the classic locking read, by primary key: waits while another claim takes the
                -- row, then sees whether it is still free. Locks are taken one row at a time in
                -- claim order and never on the claim index, so a claim and a decision cannot
                -- lock the same two things in opposite orders (no deadlock).
                SET v_taken = NULL;
                SELECT lease_token, locked_by INTO v_taken, v_owner FROM article
                 WHERE id = v_id AND status = 'queued' AND (locked_by IS NULL OR expires_at <= v_now) FOR UPDATE;
                SET v_done = 0;
                IF v_taken IS NULL THEN
                    ITERATE take; -- taken meanwhile
                END IF;
                SET v_token = v_taken;
            END IF;
            SELECT lease_seconds INTO v_lease FROM desk WHERE id = v_desk;
            SET v_expires = TIMESTAMPADD(SECOND, LEAST(v_lease, COALESCE(p_max_lease_seconds, v_lease)), v_now);
            -- the compare-and-set: cannot fail for SKIP_LOCKED and BLOCKING (the row is locked)
            UPDATE article SET locked_by = v_actor, expires_at = v_expires, lease_token = lease_token + 1,
                               queue_lane = 0, claimed_at = v_now, renewals = 0, passed_by = NULL, passed_until = NULL
             WHERE id = v_id AND lease_token = v_token AND status = 'queued'
               AND (locked_by IS NULL OR expires_at <= v_now);
            IF ROW_COUNT() = 1 THEN
                IF v_owner IS NOT NULL THEN
                    CALL log_event(v_id, 'expire', v_actor, v_owner, NULL, v_token, NULL, NULL,
                                   CONCAT('lapsed lease taken over by ', v_actor), v_now);
                END IF;
                CALL log_event(v_id, 'claim', v_actor, v_owner, v_actor, v_token, v_token + 1, v_expires, NULL, v_now);
                SET v_order = JSON_ARRAY_APPEND(v_order, '$', v_id);
                SET v_claimed = v_claimed + 1;
            END IF;
        END LOOP;
        IF p_strategy IN ('OPTIMISTIC', 'BLOCKING') THEN
            CLOSE reading;
        ELSE
            CLOSE skipping;
        END IF;
    END IF;
    UPDATE editor SET last_seen_at = v_now WHERE id = v_actor;
    COMMIT;

    SELECT v_now AS server_now, v_refreshed AS refreshed, v_claimed AS claimed, v_capacity AS capacity,
           CASE WHEN v_refreshed + v_claimed < v_capacity THEN
               (SELECT MIN(a.available_at) FROM editor_desk ed
                  JOIN article a ON a.desk_id = ed.desk_id AND a.status = 'queued' AND a.available_at > v_now
                 WHERE ed.editor_id = v_actor AND FIND_IN_SET(ed.desk_id, v_desks) > 0)
           END AS next_available_at;
    -- what was refreshed, then what was taken, in claim order
    SELECT a.id, a.external_id, a.desk_id, a.title, a.byline, a.priority, a.attempts, a.available_at, a.locked_by,
           a.lease_token, a.expires_at, v_now AS server_now
      FROM JSON_TABLE(v_order, '$[*]' COLUMNS (ord FOR ORDINALITY, id BIGINT PATH '$')) o
      JOIN article a ON a.id = o.id
     WHERE a.locked_by = v_actor
     ORDER BY o.ord;
END$$

-- The editor gives an article back. The next claims of that editor pass it over for 10 minutes
-- (another editor claiming it ends that).
CREATE PROCEDURE release_article(IN p_as VARCHAR(64), IN p_article BIGINT, IN p_token BIGINT, IN p_detail VARCHAR(2000))
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_actor VARCHAR(64);
    DECLARE v_now DATETIME(6);
    DECLARE v_changed INT;
    DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN ROLLBACK; RESIGNAL; END;
    CALL resolve_actor(p_as, 'editor', v_actor);
    SET innodb_lock_wait_timeout = 5;
    ROLLBACK; -- start clean: a deadlock in an earlier call can leave the session's transaction open
    SET TRANSACTION ISOLATION LEVEL READ COMMITTED;
    START TRANSACTION;
    SET v_now = server_utc_now();
    UPDATE article SET locked_by = NULL, expires_at = NULL,
                       passed_by = v_actor, passed_until = TIMESTAMPADD(SECOND, 600, v_now)
     WHERE id = p_article AND locked_by = v_actor AND lease_token = p_token;
    SET v_changed = ROW_COUNT();
    IF v_changed = 1 THEN
        CALL log_event(p_article, 'release', v_actor, v_actor, NULL, p_token, NULL, NULL, p_detail, v_now);
    END IF;
    COMMIT;
    SELECT v_changed AS released;
END$$

DELIMITER ;

-- Recreating a routine drops its grants: give each role its grants again.
CALL regrant_accounts();

-- [jooq ignore stop]
