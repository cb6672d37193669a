-- Copydesk's database API: editors and supervisors change data only through these operations.
--
-- V2 let editors write the article table and policed every UPDATE with a trigger: a deny-list as
-- big as SQL, fooled by one `SET timestamp`. From here on the rule is an allow-list. Editors get
-- SELECT on tables and views and EXECUTE on the procedures below, nothing else; each procedure
-- runs with its definer's rights and checks itself who calls (USER(), which the client cannot
-- set), their role, desk, capacity, the article's state, the lease token and the time, and writes
-- its own history in the same transaction.
--
-- Time comes from server_utc_now(): the server's real clock in UTC. NOW(), UTC_TIMESTAMP() and
-- CURRENT_TIMESTAMP follow the session's @@timestamp and NOW() also its @@time_zone, and any
-- account may set both; SYSDATE() ignores @@timestamp, and UNIX_TIMESTAMP() of it undoes the
-- session's time zone, so the result cannot be moved by the session.
--
-- Procedures are their own transactions (ROLLBACK of anything left open, then START TRANSACTION ...
-- COMMIT inside), so a caller cannot keep their locks by wrapping a call in a transaction of its own,
-- and each runs at READ COMMITTED (a locking claim then keeps locks only on rows it takes; see
-- docs/benchmarks.md). The ROLLBACK first also matters after a deadlock: the server can leave the
-- session inside a transaction, and the retried call's SET TRANSACTION would fail (error 1568).
--
-- p_as: who the call acts for. NULL means the signed-in person. Only administrators (role admin,
-- or the account that owns these procedures) may name someone else; the command line and the
-- tests use it on the embedded server.
--
-- jOOQ's code generator does not read routines; it skips everything between the markers.

-- [jooq ignore start]

DROP TRIGGER IF EXISTS article_guard;
DROP TRIGGER IF EXISTS editor_guard;
DROP TRIGGER IF EXISTS decision_owner;
DROP TRIGGER IF EXISTS review_draft_owner_insert;
DROP TRIGGER IF EXISTS review_draft_owner_update;
DROP TRIGGER IF EXISTS review_draft_owner_delete;
DROP TRIGGER IF EXISTS lease_event_stamp;

DELIMITER $$

CREATE FUNCTION server_utc_now() RETURNS DATETIME(6)
    NOT DETERMINISTIC NO SQL SQL SECURITY DEFINER
    RETURN TIMESTAMPADD(MICROSECOND, ROUND(UNIX_TIMESTAMP(SYSDATE(6)) * 1000000), '1970-01-01 00:00:00.000000')$$

-- Who a call acts for, after checking the caller may act as them and has the role needed.
-- Not granted to anyone: only the procedures below call it.
CREATE PROCEDURE resolve_actor(IN p_as VARCHAR(64), IN p_need VARCHAR(16), OUT o_actor VARCHAR(64))
    SQL SECURITY DEFINER READS SQL DATA
BEGIN
    DECLARE v_who VARCHAR(64) DEFAULT SUBSTRING_INDEX(USER(), '@', 1);
    DECLARE v_role VARCHAR(16) DEFAULT NULL;
    SET v_role = (SELECT role FROM editor WHERE id = v_who);
    IF v_who = SUBSTRING_INDEX(CURRENT_USER(), '@', 1) THEN
        SET v_role = 'admin'; -- the account that owns the schema and these procedures
    END IF;
    IF v_role IS NULL THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: this database account is not a Copydesk editor, supervisor or admin';
    END IF;
    IF p_need = 'supervisor' AND v_role = 'editor' THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: only a supervisor may do this';
    END IF;
    IF p_need = 'admin' AND v_role <> 'admin' THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: only an admin may do this';
    END IF;
    IF p_as IS NOT NULL AND p_as <> v_who AND v_role <> 'admin' THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: you can act only for yourself';
    END IF;
    SET o_actor = COALESCE(p_as, v_who);
END$$

-- Appends one history row. Not granted to anyone.
CREATE PROCEDURE log_event(IN p_row BIGINT, IN p_action VARCHAR(32), IN p_actor VARCHAR(64), IN p_old_owner VARCHAR(64),
                           IN p_new_owner VARCHAR(64), IN p_old_token BIGINT, IN p_token BIGINT, IN p_expires DATETIME(6),
                           IN p_detail TEXT, IN p_now DATETIME(6))
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    INSERT INTO lease_event (occurred_at, resource, row_key, action, actor, old_owner, new_owner, old_token,
                             lease_token, expires_at, detail)
    VALUES (p_now, 'article', CAST(p_row AS CHAR), p_action, p_actor, p_old_owner, p_new_owner, p_old_token,
            p_token, p_expires,
            CASE WHEN CHAR_LENGTH(p_detail) > 2000 THEN CONCAT(LEFT(p_detail, 1997), '...') ELSE p_detail END);
END$$

-- Get articles / Reload, in one call: refreshes every valid lease of the editor to the desk's length
-- (never shorter than it is), then tops up to their capacity with articles from their desks (only
-- p_desks among them, if given: a comma-separated list) in claim order, free or with a lapsed lease.
-- p_limit caps the batch (NULL: the capacity), p_max_lease_seconds caps the lease (NULL: the desk's).
-- p_strategy: SKIP_LOCKED (default), BLOCKING (waits for locked rows), OPTIMISTIC (no locking
-- read; each take is a compare-and-set on the token, for multi-writer clusters).
-- Result 1: server_now, refreshed, claimed, capacity, next_available_at (when held < capacity).
-- Result 2: the leases refreshed and taken, in that order, with what the editor's list shows.
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
    DECLARE v_done INT DEFAULT 0;
    DECLARE v_order TEXT DEFAULT '[]';
    DECLARE own CURSOR FOR
        SELECT id, desk_id, lease_token, claimed_at, expires_at FROM article
        WHERE locked_by = v_actor AND expires_at > v_now FOR UPDATE;
    DECLARE skipping CURSOR FOR
        SELECT id, desk_id, locked_by, lease_token FROM article
        WHERE status = 'queued' AND available_at <= v_now AND (locked_by IS NULL OR expires_at <= v_now)
          AND FIND_IN_SET(desk_id, v_desks) > 0
        ORDER BY status, priority, queue_lane, available_at, id LIMIT v_want FOR UPDATE SKIP LOCKED;
    DECLARE blocking CURSOR FOR
        SELECT id, desk_id, locked_by, lease_token FROM article
        WHERE status = 'queued' AND available_at <= v_now AND (locked_by IS NULL OR expires_at <= v_now)
          AND FIND_IN_SET(desk_id, v_desks) > 0
        ORDER BY status, priority, queue_lane, available_at, id LIMIT v_want FOR UPDATE;
    DECLARE reading CURSOR FOR
        SELECT id, desk_id, locked_by, lease_token FROM article
        WHERE status = 'queued' AND available_at <= v_now AND (locked_by IS NULL OR expires_at <= v_now)
          AND FIND_IN_SET(desk_id, v_desks) > 0
        ORDER BY status, priority, queue_lane, available_at, id LIMIT v_scan;
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
    SET v_scan = v_want * 4;
    SET v_done = 0;
    IF v_want > 0 AND v_desks IS NOT NULL THEN
        IF p_strategy = 'OPTIMISTIC' THEN
            OPEN reading;
        ELSEIF p_strategy = 'BLOCKING' THEN
            OPEN blocking;
        ELSE
            OPEN skipping;
        END IF;
        take: LOOP
            IF v_claimed >= v_want THEN LEAVE take; END IF;
            IF p_strategy = 'OPTIMISTIC' THEN
                FETCH reading INTO v_id, v_desk, v_owner, v_token;
            ELSEIF p_strategy = 'BLOCKING' THEN
                FETCH blocking INTO v_id, v_desk, v_owner, v_token;
            ELSE
                FETCH skipping INTO v_id, v_desk, v_owner, v_token;
            END IF;
            IF v_done = 1 THEN LEAVE take; END IF;
            SELECT lease_seconds INTO v_lease FROM desk WHERE id = v_desk;
            SET v_expires = TIMESTAMPADD(SECOND, LEAST(v_lease, COALESCE(p_max_lease_seconds, v_lease)), v_now);
            -- the compare-and-set: for the locking strategies it cannot fail (the row is locked)
            UPDATE article SET locked_by = v_actor, expires_at = v_expires, lease_token = lease_token + 1,
                               queue_lane = 0, claimed_at = v_now, renewals = 0
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
        IF p_strategy = 'OPTIMISTIC' THEN
            CLOSE reading;
        ELSEIF p_strategy = 'BLOCKING' THEN
            CLOSE blocking;
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

-- The heartbeat: renews the given leases (a JSON array of [id, token] pairs) to their desk's
-- length, never shortening one and never past the desk's maximum hold. A lease whose token is
-- unchanged is still the editor's even if it lapsed (nobody took it since).
-- Result: id, renewed (1) or lost (0), lease_token, expires_at, server_now.
CREATE PROCEDURE renew_leases(IN p_as VARCHAR(64), IN p_leases TEXT)
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_actor VARCHAR(64);
    DECLARE v_now DATETIME(6);
    DECLARE v_id BIGINT;
    DECLARE v_token BIGINT;
    DECLARE v_desk VARCHAR(32);
    DECLARE v_claimed_at DATETIME(6);
    DECLARE v_expires DATETIME(6);
    DECLARE v_lease INT;
    DECLARE v_max INT;
    DECLARE v_done INT DEFAULT 0;
    DECLARE v_out TEXT DEFAULT '[]';
    DECLARE wanted CURSOR FOR
        SELECT j.id, j.token FROM JSON_TABLE(p_leases, '$[*]' COLUMNS (id BIGINT PATH '$[0]', token BIGINT PATH '$[1]')) j;
    DECLARE CONTINUE HANDLER FOR NOT FOUND SET v_done = 1;
    DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN ROLLBACK; RESIGNAL; END;

    CALL resolve_actor(p_as, 'editor', v_actor);
    IF p_leases IS NULL OR JSON_VALID(p_leases) = 0 THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: the leases to renew are not a list of [article, token] pairs';
    END IF;
    SET innodb_lock_wait_timeout = 5;
    ROLLBACK; -- start clean: a deadlock in an earlier call can leave the session's transaction open
    SET TRANSACTION ISOLATION LEVEL READ COMMITTED;
    START TRANSACTION;
    SET v_now = server_utc_now();
    OPEN wanted;
    each_lease: LOOP
        FETCH wanted INTO v_id, v_token;
        IF v_done = 1 THEN LEAVE each_lease; END IF;
        SET v_desk = NULL;
        SELECT desk_id, claimed_at, expires_at INTO v_desk, v_claimed_at, v_expires FROM article
         WHERE id = v_id AND locked_by = v_actor AND lease_token = v_token FOR UPDATE;
        SET v_done = 0;
        -- a lease that lapsed (nobody took it since) is renewed only within the editor's capacity:
        -- otherwise letting leases lapse, claiming more and renewing the old ones would hold twice as many
        IF v_desk IS NOT NULL AND v_expires <= v_now
                AND (SELECT COUNT(*) FROM article WHERE locked_by = v_actor AND expires_at > v_now)
                    >= (SELECT capacity FROM editor WHERE id = v_actor) THEN
            SET v_desk = NULL;
        END IF;
        IF v_desk IS NULL THEN
            SET v_out = JSON_ARRAY_APPEND(v_out, '$', JSON_ARRAY(v_id, 0));
        ELSE
            SELECT lease_seconds, max_lease_seconds INTO v_lease, v_max FROM desk WHERE id = v_desk;
            SET v_expires = GREATEST(v_expires, LEAST(TIMESTAMPADD(SECOND, v_lease, v_now),
                                                      TIMESTAMPADD(SECOND, v_max, COALESCE(v_claimed_at, v_now))));
            UPDATE article SET expires_at = v_expires, renewals = renewals + 1 WHERE id = v_id;
            CALL log_event(v_id, 'renew', v_actor, v_actor, v_actor, v_token, v_token, v_expires, NULL, v_now);
            SET v_out = JSON_ARRAY_APPEND(v_out, '$', JSON_ARRAY(v_id, 1));
        END IF;
    END LOOP;
    CLOSE wanted;
    UPDATE editor SET last_seen_at = v_now WHERE id = v_actor;
    COMMIT;
    SELECT o.id, o.renewed, a.lease_token, a.expires_at, v_now AS server_now
      FROM JSON_TABLE(v_out, '$[*]' COLUMNS (id BIGINT PATH '$[0]', renewed INT PATH '$[1]')) o
      LEFT JOIN article a ON a.id = o.id ORDER BY o.id;
END$$

-- Gives an article back to the queue. Result: released (1) or not held under that token (0).
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
    UPDATE article SET locked_by = NULL, expires_at = NULL
     WHERE id = p_article AND locked_by = v_actor AND lease_token = p_token;
    SET v_changed = ROW_COUNT();
    IF v_changed = 1 THEN
        CALL log_event(p_article, 'release', v_actor, v_actor, NULL, p_token, NULL, NULL, p_detail, v_now);
    END IF;
    COMMIT;
    SELECT v_changed AS released;
END$$

-- An editor's decision under their lease, in one transaction: the article's new state and the end
-- of the lease (fenced by owner and token), the decision (unique per request id, so a retried
-- submit is recognised), the history, and the draft's removal. Nothing changes if the lease is gone.
-- Result: outcome (recorded, already, lost, gone), article_id, verdict, status, returns_at, quarantined.
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
    DECLARE v_max_send_backs INT;
    DECLARE v_delay BIGINT;
    DECLARE v_new_status VARCHAR(16);
    DECLARE v_returns DATETIME(6) DEFAULT NULL;
    DECLARE v_quarantine INT DEFAULT 0;
    DECLARE v_earlier_article BIGINT DEFAULT NULL;
    DECLARE v_earlier_verdict VARCHAR(16);
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
    SET innodb_lock_wait_timeout = 5;
    ROLLBACK; -- start clean: a deadlock in an earlier call can leave the session's transaction open
    SET TRANSACTION ISOLATION LEVEL READ COMMITTED;
    START TRANSACTION;
    SET v_now = server_utc_now();
    SELECT article_id, verdict INTO v_earlier_article, v_earlier_verdict FROM decision WHERE request_id = p_request;
    IF v_earlier_article IS NOT NULL THEN
        COMMIT;
        SELECT 'already' AS outcome, v_earlier_article AS article_id, v_earlier_verdict AS verdict, NULL AS status,
               NULL AS returns_at, 0 AS quarantined;
    ELSE
        SELECT status, locked_by, lease_token, desk_id, attempts INTO v_status, v_owner, v_token, v_desk, v_attempts
          FROM article WHERE id = p_article FOR UPDATE;
        IF v_desk IS NULL THEN
            COMMIT;
            SELECT 'gone' AS outcome, p_article AS article_id, p_verdict AS verdict, NULL AS status, NULL AS returns_at,
                   0 AS quarantined;
        ELSEIF v_owner IS NULL OR v_owner <> v_actor OR v_token <> p_token OR v_status <> 'queued' THEN
            COMMIT;
            SELECT 'lost' AS outcome, p_article AS article_id, p_verdict AS verdict, NULL AS status, NULL AS returns_at,
                   0 AS quarantined;
        ELSE
            SELECT max_send_backs, send_back_delay_seconds INTO v_max_send_backs, v_delay FROM desk WHERE id = v_desk;
            CASE p_verdict
                WHEN 'approve' THEN SET v_new_status = 'approved';
                WHEN 'reject' THEN SET v_new_status = 'rejected';
                WHEN 'unreviewable' THEN SET v_new_status = 'quarantined';
                ELSE
                    SET v_attempts = v_attempts + 1;
                    IF v_attempts > v_max_send_backs THEN
                        SET v_new_status = 'quarantined';
                        SET v_quarantine = 1;
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
            CALL log_event(p_article, 'complete', v_actor, v_actor, NULL, p_token, NULL, NULL, p_verdict, v_now);
            INSERT INTO decision (request_id, article_id, editor_id, verdict, notes, lease_token, decided_at)
            VALUES (p_request, p_article, v_actor, p_verdict, COALESCE(p_notes, ''), p_token, v_now);
            CALL log_event(p_article, p_verdict, v_actor, NULL, NULL, NULL, NULL, NULL, p_notes, v_now);
            IF v_quarantine = 1 THEN
                CALL log_event(p_article, 'quarantine', v_actor, NULL, NULL, NULL, NULL, NULL,
                               CONCAT('sent back more than ', v_max_send_backs, ' times'), v_now);
            END IF;
            DELETE FROM review_draft WHERE article_id = p_article AND editor_id = v_actor;
            COMMIT;
            SELECT 'recorded' AS outcome, p_article AS article_id, p_verdict AS verdict, v_new_status AS status,
                   v_returns AS returns_at, v_quarantine AS quarantined;
        END IF;
    END IF;
END$$

-- Saves (or replaces) the signed-in person's draft of their notes; no lease needed, so notes survive
-- a lost lease or a crash.
CREATE PROCEDURE save_draft(IN p_as VARCHAR(64), IN p_article BIGINT, IN p_verdict VARCHAR(16), IN p_notes TEXT)
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_actor VARCHAR(64);
    CALL resolve_actor(p_as, 'editor', v_actor);
    IF p_verdict IS NOT NULL AND p_verdict NOT IN ('approve', 'reject', 'send_back', 'unreviewable') THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: a draft verdict is approve, reject, send_back or unreviewable';
    END IF;
    IF CHAR_LENGTH(p_notes) > 60000 THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: the notes are longer than 60,000 characters';
    END IF;
    IF NOT EXISTS (SELECT 1 FROM article WHERE id = p_article) THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: there is no such article';
    END IF;
    INSERT INTO review_draft (article_id, editor_id, verdict, notes, saved_at)
    VALUES (p_article, v_actor, p_verdict, COALESCE(p_notes, ''), server_utc_now())
    ON DUPLICATE KEY UPDATE verdict = VALUES(verdict), notes = VALUES(notes), saved_at = VALUES(saved_at);
END$$

-- A sign of life from the editor's client (drives online/idle/offline on the dashboard).
CREATE PROCEDURE record_presence(IN p_as VARCHAR(64))
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_actor VARCHAR(64);
    CALL resolve_actor(p_as, 'editor', v_actor);
    UPDATE editor SET last_seen_at = server_utc_now() WHERE id = v_actor;
END$$

-- The release service (every client runs one): frees up to p_batch leases whose expiry has passed,
-- oldest first, skipping rows others have locked. Result: the leases it ended.
CREATE PROCEDURE release_expired_leases(IN p_batch INT)
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_actor VARCHAR(64);
    DECLARE v_now DATETIME(6);
    DECLARE v_id BIGINT;
    DECLARE v_owner VARCHAR(64);
    DECLARE v_token BIGINT;
    DECLARE v_expires DATETIME(6);
    DECLARE v_batch INT;
    DECLARE v_done INT DEFAULT 0;
    DECLARE v_out TEXT DEFAULT '[]';
    DECLARE lapsed CURSOR FOR
        SELECT id, locked_by, lease_token, expires_at FROM article
         WHERE expires_at < v_now AND locked_by IS NOT NULL
         ORDER BY expires_at LIMIT v_batch FOR UPDATE SKIP LOCKED;
    DECLARE CONTINUE HANDLER FOR NOT FOUND SET v_done = 1;
    DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN ROLLBACK; RESIGNAL; END;
    CALL resolve_actor(NULL, 'editor', v_actor);
    SET v_batch = GREATEST(1, LEAST(COALESCE(p_batch, 100), 1000));
    SET innodb_lock_wait_timeout = 5;
    ROLLBACK; -- start clean: a deadlock in an earlier call can leave the session's transaction open
    SET TRANSACTION ISOLATION LEVEL READ COMMITTED;
    START TRANSACTION;
    SET v_now = server_utc_now();
    OPEN lapsed;
    each_lease: LOOP
        FETCH lapsed INTO v_id, v_owner, v_token, v_expires;
        IF v_done = 1 THEN LEAVE each_lease; END IF;
        UPDATE article SET locked_by = NULL, expires_at = NULL WHERE id = v_id;
        CALL log_event(v_id, 'expire', v_actor, v_owner, NULL, v_token, NULL, NULL,
                       CONCAT('lease expired at ', DATE_FORMAT(v_expires, '%Y-%m-%dT%H:%i:%s.%f')), v_now);
        SET v_out = JSON_ARRAY_APPEND(v_out, '$', JSON_ARRAY(v_id, v_owner, v_token,
                                                             DATE_FORMAT(v_expires, '%Y-%m-%d %H:%i:%s.%f')));
    END LOOP;
    CLOSE lapsed;
    COMMIT;
    SELECT r.id, r.owner, r.token, CAST(r.expires_at AS DATETIME(6)) AS expires_at, v_now AS server_now
      FROM JSON_TABLE(v_out, '$[*]' COLUMNS (id BIGINT PATH '$[0]', owner VARCHAR(64) PATH '$[1]',
                                             token BIGINT PATH '$[2]', expires_at VARCHAR(32) PATH '$[3]')) r
     ORDER BY r.expires_at, r.id;
END$$

-- Ends the connections of people (editors and supervisors, never administrators) whose open
-- transaction has held row locks for more than p_seconds (at least 3) while not inside one of
-- these operations. Copydesk's own work never keeps a transaction open between calls, so such a
-- transaction is a raw session holding `SELECT ... FOR UPDATE` / `FOR SHARE` on rows others need. Every client's release service calls
-- this, so nobody can block others' claims and renewals for longer than a few seconds.
-- Result: how many connections were ended.
CREATE PROCEDURE end_stuck_transactions(IN p_seconds INT)
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_actor VARCHAR(64);
    DECLARE v_thread BIGINT;
    DECLARE v_ended INT DEFAULT 0;
    DECLARE v_done INT DEFAULT 0;
    DECLARE stuck CURSOR FOR
        SELECT t.trx_mysql_thread_id
          FROM information_schema.innodb_trx t
          JOIN information_schema.processlist p ON p.id = t.trx_mysql_thread_id
          JOIN editor e ON e.id = p.user AND e.role IN ('editor', 'supervisor')
         WHERE t.trx_rows_locked > 0
           AND TIMESTAMPDIFF(SECOND, t.trx_started, SYSDATE()) > GREATEST(3, COALESCE(p_seconds, 5))
           -- not one of these operations at work (a large import batch may take longer): they
           -- begin with ROLLBACK, so nobody can keep older locks by calling one
           AND NOT (p.command = 'Query' AND LOWER(LEFT(TRIM(COALESCE(p.info, '')), 5)) = 'call ');
    DECLARE CONTINUE HANDLER FOR NOT FOUND SET v_done = 1;
    CALL resolve_actor(NULL, 'editor', v_actor);
    OPEN stuck;
    each_thread: LOOP
        FETCH stuck INTO v_thread;
        IF v_done = 1 THEN LEAVE each_thread; END IF;
        BEGIN
            -- it may have ended by itself meanwhile
            DECLARE CONTINUE HANDLER FOR SQLEXCEPTION BEGIN END;
            KILL CONNECTION v_thread;
            SET v_ended = v_ended + 1;
        END;
    END LOOP;
    CLOSE stuck;
    SELECT v_ended AS ended;
END$$

-- The supervisor's operations. Each locks the article, checks, changes it and writes history.
-- Result of each: the lease after the change (article_id, owner, token, expires_at, server_now),
-- plus the lease before it where one ended.

-- Ends the article's lease now; the editor is told who did it and why. Result: the ended lease, or
-- no row if the article was not held.
CREATE PROCEDURE force_release_article(IN p_as VARCHAR(64), IN p_article BIGINT, IN p_reason VARCHAR(2000))
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_actor VARCHAR(64);
    DECLARE v_now DATETIME(6);
    DECLARE v_found BIGINT DEFAULT NULL;
    DECLARE v_owner VARCHAR(64);
    DECLARE v_token BIGINT;
    DECLARE v_expires DATETIME(6);
    DECLARE CONTINUE HANDLER FOR NOT FOUND BEGIN END;
    DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN ROLLBACK; RESIGNAL; END;
    CALL resolve_actor(p_as, 'supervisor', v_actor);
    IF TRIM(COALESCE(p_reason, '')) = '' THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: give a reason; the editor will see it';
    END IF;
    SET innodb_lock_wait_timeout = 5;
    ROLLBACK; -- start clean: a deadlock in an earlier call can leave the session's transaction open
    SET TRANSACTION ISOLATION LEVEL READ COMMITTED;
    START TRANSACTION;
    SET v_now = server_utc_now();
    SELECT id, locked_by, lease_token, expires_at INTO v_found, v_owner, v_token, v_expires
      FROM article WHERE id = p_article FOR UPDATE;
    IF v_found IS NULL THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: there is no such article';
    END IF;
    IF v_owner IS NOT NULL THEN
        UPDATE article SET locked_by = NULL, expires_at = NULL WHERE id = p_article;
        CALL log_event(p_article, 'force_release', v_actor, v_owner, NULL, v_token, NULL, NULL, TRIM(p_reason), v_now);
    END IF;
    COMMIT;
    SELECT p_article AS article_id, v_owner AS owner, v_token AS lease_token, v_expires AS expires_at,
           v_now AS server_now
      FROM DUAL WHERE v_owner IS NOT NULL;
END$$

-- Gives the article to p_to under a new lease of the desk's length, whoever held it. Refused when
-- the article is not waiting for review, its desk is not one of p_to's, or (unless p_override)
-- p_to already holds their capacity. Result: the new lease.
CREATE PROCEDURE reassign_article(IN p_as VARCHAR(64), IN p_article BIGINT, IN p_to VARCHAR(64), IN p_override INT, IN p_reason VARCHAR(2000))
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_actor VARCHAR(64);
    DECLARE v_now DATETIME(6);
    DECLARE v_found BIGINT DEFAULT NULL;
    DECLARE v_status VARCHAR(16);
    DECLARE v_desk VARCHAR(32);
    DECLARE v_owner VARCHAR(64);
    DECLARE v_token BIGINT;
    DECLARE v_lease INT;
    DECLARE v_expires DATETIME(6);
    DECLARE v_capacity INT DEFAULT NULL;
    DECLARE v_held INT;
    DECLARE CONTINUE HANDLER FOR NOT FOUND BEGIN END;
    DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN ROLLBACK; RESIGNAL; END;
    CALL resolve_actor(p_as, 'supervisor', v_actor);
    SET innodb_lock_wait_timeout = 5;
    ROLLBACK; -- start clean: a deadlock in an earlier call can leave the session's transaction open
    SET TRANSACTION ISOLATION LEVEL READ COMMITTED;
    START TRANSACTION;
    SET v_now = server_utc_now();
    SELECT capacity INTO v_capacity FROM editor WHERE id = p_to FOR UPDATE;
    IF v_capacity IS NULL THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: there is no editor of that name';
    END IF;
    SELECT id, status, desk_id, locked_by, lease_token INTO v_found, v_status, v_desk, v_owner, v_token
      FROM article WHERE id = p_article FOR UPDATE;
    IF v_found IS NULL OR v_status <> 'queued' THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: this article is not waiting for review';
    END IF;
    IF NOT EXISTS (SELECT 1 FROM editor_desk WHERE editor_id = p_to AND desk_id = v_desk) THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: that editor does not work on this article''s desk';
    END IF;
    SET v_held = (SELECT COUNT(*) FROM article WHERE locked_by = p_to AND expires_at > v_now AND id <> p_article);
    IF v_held >= v_capacity AND COALESCE(p_override, 0) = 0 THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: that editor already holds as many articles as their capacity';
    END IF;
    SET v_lease = (SELECT lease_seconds FROM desk WHERE id = v_desk);
    SET v_expires = TIMESTAMPADD(SECOND, v_lease, v_now);
    UPDATE article SET locked_by = p_to, expires_at = v_expires, lease_token = lease_token + 1, queue_lane = 0,
                       claimed_at = v_now, renewals = 0
     WHERE id = p_article;
    CALL log_event(p_article, 'reassign', v_actor, v_owner, p_to, IF(v_owner IS NULL, NULL, v_token), v_token + 1,
                   v_expires, NULLIF(TRIM(p_reason), ''), v_now);
    COMMIT;
    SELECT p_article AS article_id, p_to AS owner, v_token + 1 AS lease_token, v_expires AS expires_at,
           v_now AS server_now, v_held AS held_before;
END$$

-- Moves the holder's expiry p_seconds later (from now, if it already passed), at most the desk's
-- maximum hold after the claim. Result: the lease after, or no row if the article is not held.
CREATE PROCEDURE extend_lease(IN p_as VARCHAR(64), IN p_article BIGINT, IN p_seconds INT)
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_actor VARCHAR(64);
    DECLARE v_now DATETIME(6);
    DECLARE v_found BIGINT DEFAULT NULL;
    DECLARE v_desk VARCHAR(32);
    DECLARE v_owner VARCHAR(64);
    DECLARE v_token BIGINT;
    DECLARE v_claimed_at DATETIME(6);
    DECLARE v_expires DATETIME(6);
    DECLARE v_max INT;
    DECLARE CONTINUE HANDLER FOR NOT FOUND BEGIN END;
    DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN ROLLBACK; RESIGNAL; END;
    CALL resolve_actor(p_as, 'supervisor', v_actor);
    IF p_seconds IS NULL OR p_seconds < 1 OR p_seconds > 86400 THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: give between one second and one day more';
    END IF;
    SET innodb_lock_wait_timeout = 5;
    ROLLBACK; -- start clean: a deadlock in an earlier call can leave the session's transaction open
    SET TRANSACTION ISOLATION LEVEL READ COMMITTED;
    START TRANSACTION;
    SET v_now = server_utc_now();
    SELECT id, desk_id, locked_by, lease_token, claimed_at, expires_at
      INTO v_found, v_desk, v_owner, v_token, v_claimed_at, v_expires
      FROM article WHERE id = p_article FOR UPDATE;
    IF v_found IS NULL THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: there is no such article';
    END IF;
    IF v_owner IS NOT NULL THEN
        SET v_max = (SELECT max_lease_seconds FROM desk WHERE id = v_desk);
        SET v_expires = LEAST(TIMESTAMPADD(SECOND, p_seconds, GREATEST(v_expires, v_now)),
                              TIMESTAMPADD(SECOND, v_max, COALESCE(v_claimed_at, v_now)));
        UPDATE article SET expires_at = v_expires WHERE id = p_article;
        CALL log_event(p_article, 'extend', v_actor, v_owner, v_owner, v_token, v_token, v_expires,
                       CONCAT('extended by ', p_seconds DIV 60, ' min'), v_now);
    END IF;
    COMMIT;
    SELECT p_article AS article_id, v_owner AS owner, v_token AS lease_token, v_expires AS expires_at,
           v_now AS server_now
      FROM DUAL WHERE v_owner IS NOT NULL;
END$$

-- --- people and their accounts ---------------------------------------------------------------

-- A supervisor sets how many articles a person holds at most.
CREATE PROCEDURE set_editor_capacity(IN p_editor VARCHAR(64), IN p_capacity INT)
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_actor VARCHAR(64);
    CALL resolve_actor(NULL, 'supervisor', v_actor);
    IF p_capacity IS NULL OR p_capacity < 0 OR p_capacity > 100 THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: capacity is between 0 and 100 articles';
    END IF;
    IF NOT EXISTS (SELECT 1 FROM editor WHERE id = p_editor) THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: there is no editor of that name';
    END IF;
    UPDATE editor SET capacity = p_capacity WHERE id = p_editor;
END$$

-- A supervisor sets the desks a person works on (a comma-separated list of desk ids).
CREATE PROCEDURE set_editor_desks(IN p_editor VARCHAR(64), IN p_desks VARCHAR(2000))
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_actor VARCHAR(64);
    DECLARE v_rest VARCHAR(2000) DEFAULT TRIM(COALESCE(p_desks, ''));
    DECLARE v_desk VARCHAR(2000);
    DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN ROLLBACK; RESIGNAL; END;
    CALL resolve_actor(NULL, 'supervisor', v_actor);
    IF NOT EXISTS (SELECT 1 FROM editor WHERE id = p_editor) THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: there is no editor of that name';
    END IF;
    START TRANSACTION;
    DELETE FROM editor_desk WHERE editor_id = p_editor;
    WHILE v_rest <> '' DO
        SET v_desk = TRIM(SUBSTRING_INDEX(v_rest, ',', 1));
        SET v_rest = IF(LOCATE(',', v_rest) > 0, TRIM(SUBSTRING(v_rest, LOCATE(',', v_rest) + 1)), '');
        IF v_desk <> '' THEN
            IF NOT EXISTS (SELECT 1 FROM desk WHERE id = v_desk) THEN
                SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: there is no desk of that name';
            END IF;
            INSERT IGNORE INTO editor_desk (editor_id, desk_id) VALUES (p_editor, v_desk);
        END IF;
    END WHILE;
    COMMIT;
END$$

-- Runs one account statement built below. Not granted to anyone. (PREPARE takes only a user
-- variable; it is set right here, so nothing the caller set before is used.)
CREATE PROCEDURE run_account_statement(IN p_sql TEXT)
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    SET @copydesk_account_statement = p_sql;
    PREPARE account_statement FROM @copydesk_account_statement;
    EXECUTE account_statement;
    DEALLOCATE PREPARE account_statement;
    SET @copydesk_account_statement = NULL;
END$$

-- What each role may do, and the one place that says it: every role reads the tables and views and
-- its own drafts; editors call the editor's operations; supervisors also the supervisor's (and
-- read every draft and the import quarantine); admins own the schema. Nobody but the account
-- that owns these procedures creates accounts or grants rights. Not granted to anyone.
CREATE PROCEDURE apply_role(IN p_name VARCHAR(32), IN p_role VARCHAR(16))
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_account VARCHAR(100) DEFAULT CONCAT(QUOTE(p_name), '@''%''');
    DECLARE v_db VARCHAR(100) DEFAULT CONCAT('`', DATABASE(), '`.');
    DECLARE v_rest VARCHAR(2000);
    DECLARE v_item VARCHAR(100);
    CALL run_account_statement(CONCAT('REVOKE ALL PRIVILEGES, GRANT OPTION FROM ', v_account));
    SET v_rest = 'article,desk,editor,editor_desk,lease_event,decision,flyway_schema_history,own_review_draft';
    WHILE v_rest <> '' DO
        SET v_item = SUBSTRING_INDEX(v_rest, ',', 1);
        SET v_rest = IF(LOCATE(',', v_rest) > 0, SUBSTRING(v_rest, LOCATE(',', v_rest) + 1), '');
        CALL run_account_statement(CONCAT('GRANT SELECT ON ', v_db, '`', v_item, '` TO ', v_account));
    END WHILE;
    -- who has a draft where; the notes only through own_review_draft
    CALL run_account_statement(CONCAT('GRANT SELECT (article_id, editor_id) ON ', v_db, '`review_draft` TO ', v_account));
    SET v_rest = 'claim_articles,renew_leases,release_article,decide_article,save_draft,record_presence,release_expired_leases,end_stuck_transactions';
    IF p_role IN ('supervisor', 'admin') THEN
        SET v_rest = CONCAT(v_rest, ',force_release_article,reassign_article,extend_lease,set_editor_capacity,set_editor_desks',
                            ',import_articles,requeue_article,correct_import_row,discard_import_row');
    END IF;
    -- admins call the account operations through ALL on the schema (below): granting EXECUTE on a
    -- routine while it runs makes MariaDB reload it mid-call and fail ("Recursive limit 0")
    WHILE v_rest <> '' DO
        SET v_item = SUBSTRING_INDEX(v_rest, ',', 1);
        SET v_rest = IF(LOCATE(',', v_rest) > 0, SUBSTRING(v_rest, LOCATE(',', v_rest) + 1), '');
        CALL run_account_statement(CONCAT('GRANT EXECUTE ON PROCEDURE ', v_db, '`', v_item, '` TO ', v_account));
    END WHILE;
    IF p_role = 'supervisor' THEN
        CALL run_account_statement(CONCAT('GRANT SELECT ON ', v_db, '`review_draft` TO ', v_account));
        CALL run_account_statement(CONCAT('GRANT SELECT ON ', v_db, '`import_quarantine` TO ', v_account));
    END IF;
    IF p_role = 'admin' THEN
        -- the schema (migrations, purge), but no account rights beyond the operations above
        CALL run_account_statement(CONCAT('GRANT ALL PRIVILEGES ON ', v_db, '* TO ', v_account));
    END IF;
END$$

-- 1 when p_name is 1 to 32 of A-Z a-z 0-9 _ . - (compared as bytes: no accent or case folding).
-- A loop, not REGEXP: some MySQL builds ship without the ICU data REGEXP needs.
CREATE FUNCTION is_account_name(p_name VARCHAR(64)) RETURNS INT
    DETERMINISTIC NO SQL SQL SECURITY DEFINER
BEGIN
    DECLARE v_i INT DEFAULT 1;
    IF p_name IS NULL OR CHAR_LENGTH(p_name) < 1 OR CHAR_LENGTH(p_name) > 32 THEN
        RETURN 0;
    END IF;
    WHILE v_i <= CHAR_LENGTH(p_name) DO
        IF INSTR(CAST('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-' AS BINARY),
                 CAST(SUBSTRING(p_name, v_i, 1) AS BINARY)) = 0 THEN
            RETURN 0;
        END IF;
        SET v_i = v_i + 1;
    END WHILE;
    RETURN 1;
END$$

-- Checks that p_name is a person of the newsroom (not root, not another application's account).
CREATE PROCEDURE require_person(IN p_name VARCHAR(64), OUT o_role VARCHAR(16))
    SQL SECURITY DEFINER READS SQL DATA
BEGIN
    IF is_account_name(p_name) = 0 THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: an account name is 1 to 32 letters, digits, dots, dashes or underscores';
    END IF;
    SET o_role = (SELECT role FROM editor WHERE id = p_name);
    IF o_role IS NULL THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: accounts are only for people of the newsroom; add the person first';
    END IF;
    IF p_name = SUBSTRING_INDEX(CURRENT_USER(), '@', 1) THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: that is the account that owns the database; it is not managed here';
    END IF;
    -- an admin may add a person called root; the server's own accounts stay out of reach anyway
    IF p_name IN ('root', 'mysql', 'mariadb.sys', 'mysql.sys', 'mysql.session', 'mysql.infoschema', 'PUBLIC')
            OR EXISTS (SELECT 1 FROM mysql.user WHERE user = p_name
                       AND (host <> '%' OR Super_priv = 'Y' OR Create_user_priv = 'Y' OR Grant_priv = 'Y'
                            OR Process_priv = 'Y' OR File_priv = 'Y' OR Shutdown_priv = 'Y' OR Reload_priv = 'Y')) THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: that is one of the server''s own accounts; it is not managed here';
    END IF;
END$$

-- An admin creates (or renews) a person's account with the rights of their role.
CREATE PROCEDURE create_account(IN p_name VARCHAR(64), IN p_password VARCHAR(200))
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_actor VARCHAR(64);
    DECLARE v_role VARCHAR(16);
    CALL resolve_actor(NULL, 'admin', v_actor);
    CALL require_person(p_name, v_role);
    IF p_password IS NULL OR CHAR_LENGTH(p_password) < 8 THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: a password has at least 8 characters';
    END IF;
    CALL run_account_statement(CONCAT('CREATE USER IF NOT EXISTS ', QUOTE(p_name), '@''%'' IDENTIFIED BY ', QUOTE(p_password)));
    CALL run_account_statement(CONCAT('ALTER USER ', QUOTE(p_name), '@''%'' IDENTIFIED BY ', QUOTE(p_password)));
    CALL apply_role(p_name, v_role);
END$$

CREATE PROCEDURE set_account_password(IN p_name VARCHAR(64), IN p_password VARCHAR(200))
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_actor VARCHAR(64);
    DECLARE v_role VARCHAR(16);
    CALL resolve_actor(NULL, 'admin', v_actor);
    CALL require_person(p_name, v_role);
    IF p_password IS NULL OR CHAR_LENGTH(p_password) < 8 THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: a password has at least 8 characters';
    END IF;
    IF NOT EXISTS (SELECT 1 FROM mysql.user WHERE user = p_name AND host = '%') THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: that person has no database account yet';
    END IF;
    CALL run_account_statement(CONCAT('ALTER USER ', QUOTE(p_name), '@''%'' IDENTIFIED BY ', QUOTE(p_password)));
END$$

CREATE PROCEDURE drop_account(IN p_name VARCHAR(64))
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_actor VARCHAR(64);
    DECLARE v_role VARCHAR(16);
    CALL resolve_actor(NULL, 'admin', v_actor);
    CALL require_person(p_name, v_role);
    CALL run_account_statement(CONCAT('DROP USER IF EXISTS ', QUOTE(p_name), '@''%'''));
END$$

-- Gives every person's existing account the rights of their role as this version defines them
-- (after an upgrade, or a role change). Result: how many accounts.
CREATE PROCEDURE regrant_accounts()
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_actor VARCHAR(64);
    DECLARE v_name VARCHAR(64);
    DECLARE v_role VARCHAR(16);
    DECLARE v_count INT DEFAULT 0;
    DECLARE v_done INT DEFAULT 0;
    DECLARE people CURSOR FOR
        SELECT e.id, e.role FROM editor e JOIN mysql.user u ON u.user = e.id AND u.host = '%'
         WHERE is_account_name(e.id) = 1 AND e.id <> SUBSTRING_INDEX(CURRENT_USER(), '@', 1);
    DECLARE CONTINUE HANDLER FOR NOT FOUND SET v_done = 1;
    CALL resolve_actor(NULL, 'admin', v_actor);
    OPEN people;
    each_person: LOOP
        FETCH people INTO v_name, v_role;
        IF v_done = 1 THEN LEAVE each_person; END IF;
        CALL apply_role(v_name, v_role);
        SET v_count = v_count + 1;
    END LOOP;
    CLOSE people;
    SELECT v_count AS regranted;
END$$

-- --- the supervisor's imports and corrections -----------------------------------------------

-- One import batch, all in or all out: the articles (p_rows: a JSON array of objects with line,
-- external_id, desk, title, byline, body, priority, available_at ('YYYY-MM-DD HH:MM:SS.ffffff' UTC,
-- or null for now)) and the batch's refused rows (p_kept_aside: objects with line, raw_text, reason).
-- An external id already present is left alone. Result: external_id and article_id of each article
-- this call created.
CREATE PROCEDURE import_articles(IN p_as VARCHAR(64), IN p_import_id VARCHAR(64), IN p_source VARCHAR(500), IN p_rows LONGTEXT,
                                 IN p_kept_aside LONGTEXT)
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_actor VARCHAR(64);
    DECLARE v_now DATETIME(6);
    DECLARE v_line BIGINT;
    DECLARE v_external VARCHAR(1000);
    DECLARE v_desk VARCHAR(1000);
    DECLARE v_title TEXT;
    DECLARE v_byline TEXT;
    DECLARE v_body LONGTEXT;
    DECLARE v_priority INT;
    DECLARE v_available VARCHAR(64);
    DECLARE v_id BIGINT;
    DECLARE v_present INT;
    DECLARE v_out LONGTEXT DEFAULT '[]';
    DECLARE v_done INT DEFAULT 0;
    DECLARE rows_in CURSOR FOR
        SELECT j.line, j.external_id, j.desk, j.title, j.byline, j.body, j.priority, j.available_at
          FROM JSON_TABLE(p_rows, '$[*]' COLUMNS (line BIGINT PATH '$.line', external_id VARCHAR(1000) PATH '$.external_id',
               desk VARCHAR(1000) PATH '$.desk', title TEXT PATH '$.title', byline TEXT PATH '$.byline',
               body LONGTEXT PATH '$.body', priority INT PATH '$.priority', available_at VARCHAR(64) PATH '$.available_at')) j;
    DECLARE CONTINUE HANDLER FOR NOT FOUND SET v_done = 1;
    DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN ROLLBACK; RESIGNAL; END;
    CALL resolve_actor(p_as, 'supervisor', v_actor);
    IF JSON_VALID(COALESCE(p_rows, '[]')) = 0 OR JSON_VALID(COALESCE(p_kept_aside, '[]')) = 0 THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: an import batch is a JSON array of rows';
    END IF;
    SET innodb_lock_wait_timeout = 5;
    ROLLBACK; -- start clean: a deadlock in an earlier call can leave the session's transaction open
    SET TRANSACTION ISOLATION LEVEL READ COMMITTED;
    START TRANSACTION;
    SET v_now = server_utc_now();
    OPEN rows_in;
    each_row: LOOP
        FETCH rows_in INTO v_line, v_external, v_desk, v_title, v_byline, v_body, v_priority, v_available;
        IF v_done = 1 THEN LEAVE each_row; END IF;
        SET v_present = (SELECT COUNT(*) FROM article WHERE external_id = v_external);
        IF v_present = 0 THEN
            INSERT INTO article (external_id, desk_id, title, byline, body, priority, available_at, created_at, updated_at)
            VALUES (v_external, v_desk, v_title, v_byline, v_body, COALESCE(v_priority, 3),
                    COALESCE(CAST(v_available AS DATETIME(6)), v_now), v_now, v_now);
            SET v_id = LAST_INSERT_ID();
            CALL log_event(v_id, 'import', v_actor, NULL, NULL, NULL, NULL, NULL,
                           CONCAT('import ', p_import_id, ': line ', v_line, ' of ', p_source), v_now);
            SET v_out = JSON_ARRAY_APPEND(v_out, '$', JSON_ARRAY(v_external, v_id));
        END IF;
    END LOOP;
    CLOSE rows_in;
    INSERT INTO import_quarantine (import_id, source_name, line_number, raw_text, reason, created_at)
    SELECT p_import_id, p_source, q.line, q.raw_text, LEFT(q.reason, 1000), v_now
      FROM JSON_TABLE(COALESCE(p_kept_aside, '[]'), '$[*]' COLUMNS (line BIGINT PATH '$.line',
           raw_text LONGTEXT PATH '$.raw_text', reason TEXT PATH '$.reason')) q;
    COMMIT;
    SELECT o.external_id, o.article_id
      FROM JSON_TABLE(v_out, '$[*]' COLUMNS (external_id VARCHAR(128) PATH '$[0]', article_id BIGINT PATH '$[1]')) o;
END$$

-- Puts a quarantined article back in the queue, available now, its send-back count reset; a
-- corrected title or body (NULL or blank: unchanged) replaces the old one.
CREATE PROCEDURE requeue_article(IN p_as VARCHAR(64), IN p_article BIGINT, IN p_title VARCHAR(300), IN p_body LONGTEXT, IN p_note VARCHAR(2000))
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_actor VARCHAR(64);
    DECLARE v_now DATETIME(6);
    DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN ROLLBACK; RESIGNAL; END;
    CALL resolve_actor(p_as, 'supervisor', v_actor);
    START TRANSACTION;
    SET v_now = server_utc_now();
    UPDATE article
       SET status = 'queued', attempts = 0, available_at = v_now, updated_at = v_now, decided_by = NULL,
           decided_at = NULL, decision_note = NULL,
           title = IF(TRIM(COALESCE(p_title, '')) = '', title, TRIM(p_title)),
           body = IF(TRIM(COALESCE(p_body, '')) = '', body, p_body)
     WHERE id = p_article AND status = 'quarantined';
    IF ROW_COUNT() = 0 THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: this article is not in quarantine';
    END IF;
    CALL log_event(p_article, 'requeue', v_actor, NULL, NULL, NULL, NULL, NULL, p_note, v_now);
    COMMIT;
END$$

-- Turns a row an import kept aside, corrected by a supervisor, into an article.
-- p_if_present: 'refuse' (an error) or 'resolve' (the row is dealt with, no new article) when an
-- article with that external id exists already. Result: outcome (imported, present), article_id.
CREATE PROCEDURE correct_import_row(IN p_as VARCHAR(64), IN p_row BIGINT, IN p_external_id VARCHAR(128), IN p_desk VARCHAR(32),
                                    IN p_title VARCHAR(300), IN p_byline VARCHAR(200), IN p_body LONGTEXT,
                                    IN p_priority INT, IN p_available_at VARCHAR(40), IN p_if_present VARCHAR(8))
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_actor VARCHAR(64);
    DECLARE v_now DATETIME(6);
    DECLARE v_found BIGINT DEFAULT NULL;
    DECLARE v_import VARCHAR(64);
    DECLARE v_source VARCHAR(500);
    DECLARE v_line BIGINT;
    DECLARE v_external VARCHAR(128);
    DECLARE v_id BIGINT;
    DECLARE CONTINUE HANDLER FOR NOT FOUND BEGIN END;
    DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN ROLLBACK; RESIGNAL; END;
    CALL resolve_actor(p_as, 'supervisor', v_actor);
    START TRANSACTION;
    SET v_now = server_utc_now();
    -- locked, so two supervisors correcting the same row do not both make an article
    SELECT id, import_id, source_name, line_number INTO v_found, v_import, v_source, v_line
      FROM import_quarantine WHERE id = p_row AND resolved_at IS NULL FOR UPDATE;
    IF v_found IS NULL THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: this import row is not waiting for correction any more';
    END IF;
    IF NOT EXISTS (SELECT 1 FROM desk WHERE id = p_desk) THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: there is no desk of that name';
    END IF;
    SET v_external = COALESCE(NULLIF(TRIM(p_external_id), ''), CONCAT('import-', v_import, '-', v_line));
    IF EXISTS (SELECT 1 FROM article WHERE external_id = v_external) THEN
        IF COALESCE(p_if_present, 'refuse') <> 'resolve' THEN
            SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: an article with that external id exists already';
        END IF;
        UPDATE import_quarantine SET resolved_at = v_now WHERE id = p_row;
        COMMIT;
        SELECT 'present' AS outcome, NULL AS article_id;
    ELSE
        INSERT INTO article (external_id, desk_id, title, byline, body, priority, available_at, created_at, updated_at)
        VALUES (v_external, p_desk, TRIM(p_title), p_byline, p_body, COALESCE(p_priority, 3),
                COALESCE(CAST(p_available_at AS DATETIME(6)), v_now), v_now, v_now);
        SET v_id = LAST_INSERT_ID();
        UPDATE import_quarantine SET resolved_at = v_now WHERE id = p_row;
        CALL log_event(v_id, 'import', v_actor, NULL, NULL, NULL, NULL, NULL,
                       CONCAT('corrected from ', v_source, ' line ', v_line, ' (import ', v_import,
                              '; requeued from import quarantine entry #', p_row, ')'), v_now);
        COMMIT;
        SELECT 'imported' AS outcome, v_id AS article_id;
    END IF;
END$$

-- Marks a row an import kept aside as dealt with, without making an article.
CREATE PROCEDURE discard_import_row(IN p_as VARCHAR(64), IN p_row BIGINT)
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_actor VARCHAR(64);
    CALL resolve_actor(p_as, 'supervisor', v_actor);
    UPDATE import_quarantine SET resolved_at = server_utc_now() WHERE id = p_row AND resolved_at IS NULL;
    IF ROW_COUNT() = 0 THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: this import row is not waiting for correction any more';
    END IF;
END$$

DELIMITER ;

-- [jooq ignore stop]
