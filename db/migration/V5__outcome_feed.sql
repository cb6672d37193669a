-- Copydesk schema, version 5: decisions go out.
--
-- Every outcome of a review (approved, rejected, changes requested, unreviewable; a supervisor's
-- requeue of a quarantined article) is written to an outbox, outcome_event, in the same
-- transaction as the decision itself: a decision and its outgoing event are never apart. Other
-- systems read it three ways:
--   * the feed (`copydesk feed --since CURSOR`): the events in id order; the id is the cursor, so
--     reading again from a cursor gives the same events and the cursor only grows;
--   * the webhook relay (`copydesk relay --url URL`): posts each event, in order per article, and
--     keeps its delivery state here, written only through the relay_* operations below;
--   * SQL: the view outcome_feed, the feed's columns and nothing else, for a read-only account
--     (an integration account of kind feed_reader).
--
-- Integration accounts (feed_reader, relay) are not people: they are listed in
-- integration_account and get only what their kind needs (apply_role), from the admin's
-- create_integration_account.
--
-- Re-created here from V4, unchanged but for the lines marked "V5": decide_article,
-- requeue_article (each writes its outcome event), apply_role (the new grants and kinds),
-- regrant_accounts (integration accounts too), end_stuck_transactions (integration accounts'
-- sessions too: a feed reader's `SELECT ... FOR UPDATE` on the view must not block decisions).

CREATE TABLE outcome_event (
    -- the feed's cursor: only grows
    id              BIGINT        NOT NULL AUTO_INCREMENT,
    -- the receiver's duplicate check: the decision's request id (a requeue makes its own)
    idempotency_key CHAR(36)      NOT NULL,
    -- approved, rejected, changes_requested, unreviewable, requeued
    outcome         VARCHAR(32)   NOT NULL,
    article_id      BIGINT        NOT NULL,
    external_id     VARCHAR(128)  NOT NULL,
    desk_id         VARCHAR(32)   NOT NULL,
    -- who decided (or requeued)
    editor_id       VARCHAR(64)   NOT NULL,
    -- the editor's verdict (approve, reject, send_back, unreviewable); NULL for a requeue
    verdict         VARCHAR(16)   NULL,
    notes           TEXT          NOT NULL,
    -- the article's status after the outcome: a send-back past the desk's limit is 'quarantined'
    article_status  VARCHAR(16)   NOT NULL,
    -- how often the article has been sent back so far
    send_backs      INT           NOT NULL,
    -- a send-back: when the article returns to the queue
    returns_at      DATETIME(6)   NULL,
    -- the lease the decision was made under (NULL for a requeue)
    lease_token     BIGINT        NULL,
    decided_at      DATETIME(6)   NOT NULL,
    -- the relay's delivery state; only the relay_* operations change it
    delivery        ENUM('waiting', 'delivered', 'failed') NOT NULL DEFAULT 'waiting',
    attempts        INT           NOT NULL DEFAULT 0,
    next_attempt_at DATETIME(6)   NULL,
    last_attempt_at DATETIME(6)   NULL,
    -- the receiver's last answer ("HTTP 500: ..." or why it could not be reached)
    last_answer     VARCHAR(1000) NULL,
    delivered_at    DATETIME(6)   NULL,
    CONSTRAINT pk_outcome_event PRIMARY KEY (id)
);

CREATE UNIQUE INDEX uq_outcome_event_key ON outcome_event (idempotency_key);
-- The relay's next batch: waiting events in cursor order ...
CREATE INDEX ix_outcome_event_delivery ON outcome_event (delivery, id);
-- ... whose article has no earlier undelivered event.
CREATE INDEX ix_outcome_event_article ON outcome_event (article_id, id);

-- Events get their cursor in commit order: record_outcome updates this one row before it inserts,
-- and the row lock is held until the decision commits. Without it, a decision that took id 10 and
-- committed after one that took id 11 would be missed by a reader that had already seen 11.
CREATE TABLE outcome_order (
    id          INT          NOT NULL,
    last_event  DATETIME(6)  NULL,
    CONSTRAINT pk_outcome_order PRIMARY KEY (id),
    CONSTRAINT ck_outcome_order_single CHECK (id = 1)
);

-- Accounts of other systems (not people): what kind each is decides its grants.
CREATE TABLE integration_account (
    name       VARCHAR(32)  NOT NULL,
    kind       ENUM('feed_reader', 'relay') NOT NULL,
    created_by VARCHAR(64)  NOT NULL,
    created_at DATETIME(6)  NOT NULL,
    CONSTRAINT pk_integration_account PRIMARY KEY (name)
);

-- One relay delivers at a time: it holds this lease (fenced by its token, like an editor's lease)
-- and renews it while it runs; a relay that died loses it when it expires.
CREATE TABLE relay_lease (
    id          INT          NOT NULL,
    holder      VARCHAR(200) NULL,
    token       BIGINT       NOT NULL DEFAULT 0,
    expires_at  DATETIME(6)  NULL,
    CONSTRAINT pk_relay_lease PRIMARY KEY (id),
    CONSTRAINT ck_relay_lease_single CHECK (id = 1)
);

-- [jooq ignore start]

INSERT INTO relay_lease (id, token) VALUES (1, 0);
INSERT INTO outcome_order (id) VALUES (1);

-- The feed for systems that read it with SQL: the feed's columns, nothing else (no delivery state).
CREATE SQL SECURITY DEFINER VIEW outcome_feed AS
SELECT id AS cursor_id, idempotency_key, outcome, article_id, external_id, desk_id, editor_id, verdict, notes,
       article_status, send_backs, returns_at, lease_token, decided_at
  FROM outcome_event;

DROP PROCEDURE IF EXISTS decide_article;
DROP PROCEDURE IF EXISTS requeue_article;
DROP PROCEDURE IF EXISTS apply_role;
DROP PROCEDURE IF EXISTS regrant_accounts;
DROP PROCEDURE IF EXISTS end_stuck_transactions;

DELIMITER $$

-- Writes one outcome event. Not granted to anyone: only the operations that record an outcome
-- call it, inside their own transaction, as late as they can (every outcome waits here for the one
-- before it to commit).
CREATE PROCEDURE record_outcome(IN p_key CHAR(36), IN p_outcome VARCHAR(32), IN p_article BIGINT, IN p_actor VARCHAR(64),
                                IN p_verdict VARCHAR(16), IN p_notes TEXT, IN p_token BIGINT, IN p_returns DATETIME(6),
                                IN p_now DATETIME(6))
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    -- held until the caller commits: cursors in commit order (see outcome_order)
    UPDATE outcome_order SET last_event = p_now WHERE id = 1;
    INSERT INTO outcome_event (idempotency_key, outcome, article_id, external_id, desk_id, editor_id, verdict, notes,
                               article_status, send_backs, returns_at, lease_token, decided_at, next_attempt_at)
    SELECT p_key, p_outcome, a.id, a.external_id, a.desk_id, p_actor, p_verdict, COALESCE(p_notes, ''), a.status,
           a.attempts, p_returns, p_token, p_now, p_now
      FROM article a WHERE a.id = p_article;
END$$

-- decide_article as in V4, plus its outcome event.
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
            -- V5: the outcome goes out with the decision, in the same transaction
            CALL record_outcome(p_request, CASE p_verdict WHEN 'approve' THEN 'approved' WHEN 'reject' THEN 'rejected'
                                           WHEN 'send_back' THEN 'changes_requested' ELSE 'unreviewable' END,
                                p_article, v_actor, p_verdict, p_notes, p_token, v_returns, v_now);
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

-- requeue_article as in V4, plus its outcome event.
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
    -- V5: a system that was told "unreviewable" learns the article is in review again
    CALL record_outcome(UUID(), 'requeued', p_article, v_actor, NULL, p_note, NULL, NULL, v_now);
    COMMIT;
END$$

-- apply_role as in V4, plus the V5 grants and the integration kinds.
CREATE PROCEDURE apply_role(IN p_name VARCHAR(32), IN p_role VARCHAR(16))
    SQL SECURITY DEFINER MODIFIES SQL DATA
each_role: BEGIN -- V5: a label, so other systems' kinds can leave early
    DECLARE v_account VARCHAR(100) DEFAULT CONCAT(QUOTE(p_name), '@''%''');
    DECLARE v_db VARCHAR(100) DEFAULT CONCAT('`', DATABASE(), '`.');
    DECLARE v_rest VARCHAR(2000);
    DECLARE v_item VARCHAR(100);
    CALL run_account_statement(CONCAT('REVOKE ALL PRIVILEGES, GRANT OPTION FROM ', v_account));
    -- V5: other systems' accounts get their one thing and nothing of the newsroom's
    IF p_role = 'feed_reader' THEN
        CALL run_account_statement(CONCAT('GRANT SELECT ON ', v_db, '`outcome_feed` TO ', v_account));
        LEAVE each_role;
    END IF;
    IF p_role = 'relay' THEN
        SET v_rest = 'relay_acquire,relay_release,relay_next,relay_record_attempt';
        WHILE v_rest <> '' DO
            SET v_item = SUBSTRING_INDEX(v_rest, ',', 1);
            SET v_rest = IF(LOCATE(',', v_rest) > 0, SUBSTRING(v_rest, LOCATE(',', v_rest) + 1), '');
            CALL run_account_statement(CONCAT('GRANT EXECUTE ON PROCEDURE ', v_db, '`', v_item, '` TO ', v_account));
        END WHILE;
        LEAVE each_role;
    END IF;
    SET v_rest = 'article,desk,editor,editor_desk,lease_event,decision,flyway_schema_history,own_review_draft,outcome_event,outcome_feed,relay_lease'; -- V5: the outcome feed, the relay's state
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
                            ',import_articles,requeue_article,correct_import_row,discard_import_row,relay_retry'); -- V5: relay_retry
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

-- regrant_accounts as in V4, plus integration accounts.
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
         WHERE is_account_name(e.id) = 1 AND e.id <> SUBSTRING_INDEX(CURRENT_USER(), '@', 1)
        -- V5: other systems' accounts too
        UNION ALL
        SELECT i.name, i.kind FROM integration_account i JOIN mysql.user u ON u.user = i.name AND u.host = '%';
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

-- end_stuck_transactions as in V4, plus integration accounts' sessions.
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
          -- V5: and other systems' accounts (a feed reader's FOR UPDATE on the view locks outcome rows)
          JOIN (SELECT id FROM editor WHERE role IN ('editor', 'supervisor')
                UNION SELECT name FROM integration_account) e ON e.id = p.user
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

-- --- the relay: delivery state, written only here --------------------------------------------

-- Who may deliver: an integration account of kind relay, an admin, or the account that owns the
-- schema. The relay account gets nothing but these operations (no table reads, no table writes).
-- Not granted to anyone.
CREATE PROCEDURE resolve_relay(OUT o_actor VARCHAR(64))
    SQL SECURITY DEFINER READS SQL DATA
BEGIN
    DECLARE v_who VARCHAR(64) DEFAULT SUBSTRING_INDEX(USER(), '@', 1);
    IF v_who = SUBSTRING_INDEX(CURRENT_USER(), '@', 1)
            OR EXISTS (SELECT 1 FROM integration_account WHERE name = v_who AND kind = 'relay')
            OR EXISTS (SELECT 1 FROM editor WHERE id = v_who AND role = 'admin') THEN
        SET o_actor = v_who;
    ELSE
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: only a relay account or an admin may deliver the outcome feed';
    END IF;
END$$

-- Locks the relay lease and checks p_token still holds it. Not granted to anyone.
CREATE PROCEDURE require_relay_lease(IN p_token BIGINT, IN p_now DATETIME(6))
    SQL SECURITY DEFINER READS SQL DATA
BEGIN
    DECLARE v_held INT DEFAULT 0;
    SELECT COUNT(*) INTO v_held FROM relay_lease
     WHERE id = 1 AND token = p_token AND holder IS NOT NULL AND expires_at > p_now FOR UPDATE;
    IF v_held = 0 THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: this relay no longer holds the delivery lease (it lapsed, or another relay took over)';
    END IF;
END$$

-- Takes or renews the delivery lease for p_instance (a relay process) for p_seconds (3 to 3600).
-- A lease another instance holds and that has not run out is not taken. Result: token (0 when not
-- taken), holder, expires_at, server_now.
CREATE PROCEDURE relay_acquire(IN p_instance VARCHAR(200), IN p_seconds INT)
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_actor VARCHAR(64);
    DECLARE v_now DATETIME(6);
    DECLARE v_holder VARCHAR(200);
    DECLARE v_token BIGINT;
    DECLARE v_expires DATETIME(6);
    DECLARE v_until DATETIME(6);
    DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN ROLLBACK; RESIGNAL; END;
    CALL resolve_relay(v_actor);
    IF TRIM(COALESCE(p_instance, '')) = '' THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: a relay names itself';
    END IF;
    SET innodb_lock_wait_timeout = 5;
    ROLLBACK; -- start clean, as every operation
    SET TRANSACTION ISOLATION LEVEL READ COMMITTED;
    START TRANSACTION;
    SET v_now = server_utc_now();
    SELECT holder, token, expires_at INTO v_holder, v_token, v_expires FROM relay_lease WHERE id = 1 FOR UPDATE;
    IF v_holder IS NULL OR v_expires <= v_now OR v_holder = p_instance THEN
        IF v_holder IS NULL OR v_holder <> p_instance THEN
            SET v_token = v_token + 1;
        END IF;
        SET v_until = TIMESTAMPADD(SECOND, GREATEST(3, LEAST(COALESCE(p_seconds, 30), 3600)), v_now);
        UPDATE relay_lease SET holder = p_instance, token = v_token, expires_at = v_until WHERE id = 1;
        COMMIT;
        SELECT v_token AS token, p_instance AS holder, v_until AS expires_at, v_now AS server_now;
    ELSE
        COMMIT;
        SELECT 0 AS token, v_holder AS holder, v_expires AS expires_at, v_now AS server_now;
    END IF;
END$$

-- Gives the delivery lease up (a relay that stops cleanly), so the next one need not wait.
CREATE PROCEDURE relay_release(IN p_token BIGINT)
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_actor VARCHAR(64);
    CALL resolve_relay(v_actor);
    UPDATE relay_lease SET holder = NULL, expires_at = NULL WHERE id = 1 AND token = p_token;
    SELECT ROW_COUNT() AS released;
END$$

-- The next events to deliver, at most p_batch (1 to 500), in cursor order: waiting, due, and the
-- oldest undelivered event of their article (a later one waits behind an earlier one, failed ones
-- included, so each article's outcomes arrive in order). Needs the delivery lease.
CREATE PROCEDURE relay_next(IN p_token BIGINT, IN p_batch INT)
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_actor VARCHAR(64);
    DECLARE v_now DATETIME(6);
    DECLARE v_batch INT DEFAULT GREATEST(1, LEAST(COALESCE(p_batch, 50), 500));
    DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN ROLLBACK; RESIGNAL; END;
    CALL resolve_relay(v_actor);
    SET innodb_lock_wait_timeout = 5;
    ROLLBACK;
    SET TRANSACTION ISOLATION LEVEL READ COMMITTED;
    START TRANSACTION;
    SET v_now = server_utc_now();
    CALL require_relay_lease(p_token, v_now);
    COMMIT;
    SELECT e.id AS cursor_id, e.idempotency_key, e.outcome, e.article_id, e.external_id, e.desk_id, e.editor_id,
           e.verdict, e.notes, e.article_status, e.send_backs, e.returns_at, e.lease_token, e.decided_at, e.attempts
      FROM outcome_event e
     WHERE e.delivery = 'waiting' AND e.next_attempt_at <= v_now
       AND NOT EXISTS (SELECT 1 FROM outcome_event p
                        WHERE p.article_id = e.article_id AND p.id < e.id AND p.delivery <> 'delivered')
     ORDER BY e.id LIMIT v_batch;
END$$

-- What one delivery attempt of an event got: delivered (p_delivered = 1), or not, with the
-- receiver's answer. Not delivered: tried again after p_retry_ms, or marked failed once it has been
-- tried p_max_attempts times. Needs the delivery lease. Result: delivery, attempts.
CREATE PROCEDURE relay_record_attempt(IN p_token BIGINT, IN p_event BIGINT, IN p_delivered INT, IN p_answer VARCHAR(1000),
                                      IN p_retry_ms BIGINT, IN p_max_attempts INT)
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_actor VARCHAR(64);
    DECLARE v_now DATETIME(6);
    DECLARE v_delivery VARCHAR(16) DEFAULT NULL;
    DECLARE v_attempts INT;
    DECLARE v_article BIGINT;
    DECLARE CONTINUE HANDLER FOR NOT FOUND BEGIN END;
    DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN ROLLBACK; RESIGNAL; END;
    CALL resolve_relay(v_actor);
    SET innodb_lock_wait_timeout = 5;
    ROLLBACK;
    SET TRANSACTION ISOLATION LEVEL READ COMMITTED;
    START TRANSACTION;
    SET v_now = server_utc_now();
    CALL require_relay_lease(p_token, v_now);
    SELECT delivery, attempts, article_id INTO v_delivery, v_attempts, v_article
      FROM outcome_event WHERE id = p_event FOR UPDATE;
    IF v_delivery IS NULL THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: there is no such outcome event';
    END IF;
    IF v_delivery = 'waiting' THEN
        SET v_attempts = v_attempts + 1;
        IF p_delivered = 1 THEN
            SET v_delivery = 'delivered';
        ELSEIF v_attempts >= GREATEST(1, COALESCE(p_max_attempts, 1)) THEN
            SET v_delivery = 'failed';
            CALL log_event(v_article, 'relay_failed', v_actor, NULL, NULL, NULL, NULL, NULL,
                           CONCAT('outcome event ', p_event, ' not delivered after ', v_attempts, ' attempts: ',
                                  COALESCE(p_answer, 'no answer')), v_now);
        END IF;
        UPDATE outcome_event
           SET delivery = v_delivery, attempts = v_attempts, last_attempt_at = v_now, last_answer = LEFT(p_answer, 1000),
               delivered_at = IF(v_delivery = 'delivered', v_now, NULL),
               next_attempt_at = IF(v_delivery = 'waiting',
                                    TIMESTAMPADD(MICROSECOND, GREATEST(0, LEAST(COALESCE(p_retry_ms, 0), 604800000)) * 1000, v_now),
                                    NULL)
         WHERE id = p_event;
    END IF;
    COMMIT;
    SELECT v_delivery AS delivery, v_attempts AS attempts;
END$$

-- A supervisor sends failed events again: one (p_event) or every failed one (NULL). They are
-- tried at once, with a fresh count of attempts; the last answer stays until the next one.
-- Result: how many.
CREATE PROCEDURE relay_retry(IN p_as VARCHAR(64), IN p_event BIGINT)
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_actor VARCHAR(64);
    DECLARE v_now DATETIME(6);
    DECLARE v_count INT;
    DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN ROLLBACK; RESIGNAL; END;
    CALL resolve_actor(p_as, 'supervisor', v_actor);
    SET innodb_lock_wait_timeout = 5;
    ROLLBACK;
    SET TRANSACTION ISOLATION LEVEL READ COMMITTED;
    START TRANSACTION;
    SET v_now = server_utc_now();
    INSERT INTO lease_event (occurred_at, resource, row_key, action, actor, detail)
    SELECT v_now, 'article', CAST(article_id AS CHAR), 'relay_retry', v_actor,
           CONCAT('outcome event ', id, ' (', outcome, ') to be delivered again')
      FROM outcome_event WHERE delivery = 'failed' AND (p_event IS NULL OR id = p_event);
    UPDATE outcome_event SET delivery = 'waiting', attempts = 0, next_attempt_at = v_now
     WHERE delivery = 'failed' AND (p_event IS NULL OR id = p_event);
    SET v_count = ROW_COUNT();
    IF v_count = 0 AND p_event IS NOT NULL THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: this outcome event has not failed; only failed ones are sent again';
    END IF;
    COMMIT;
    SELECT v_count AS retried;
END$$

-- --- integration accounts ----------------------------------------------------------------------

-- An admin creates (or renews) the account of another system: feed_reader (reads the view
-- outcome_feed, nothing else) or relay (the relay's operations, nothing else). The name may not be
-- a person's, the server's own, or an account that exists already outside Copydesk.
CREATE PROCEDURE create_integration_account(IN p_name VARCHAR(64), IN p_kind VARCHAR(16), IN p_password VARCHAR(200))
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_actor VARCHAR(64);
    CALL resolve_actor(NULL, 'admin', v_actor);
    IF p_kind IS NULL OR p_kind NOT IN ('feed_reader', 'relay') THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: an integration account is a feed_reader or a relay';
    END IF;
    IF is_account_name(p_name) = 0 THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: an account name is 1 to 32 letters, digits, dots, dashes or underscores';
    END IF;
    IF EXISTS (SELECT 1 FROM editor WHERE id = p_name) THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: that name is a person of the newsroom; integration accounts are for other systems';
    END IF;
    IF p_name = SUBSTRING_INDEX(CURRENT_USER(), '@', 1)
            OR p_name IN ('root', 'mysql', 'mariadb.sys', 'mysql.sys', 'mysql.session', 'mysql.infoschema', 'PUBLIC')
            OR EXISTS (SELECT 1 FROM mysql.user WHERE user = p_name
                       AND (host <> '%' OR Super_priv = 'Y' OR Create_user_priv = 'Y' OR Grant_priv = 'Y'
                            OR Process_priv = 'Y' OR File_priv = 'Y' OR Shutdown_priv = 'Y' OR Reload_priv = 'Y')) THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: that is one of the server''s own accounts; it is not managed here';
    END IF;
    IF EXISTS (SELECT 1 FROM mysql.user WHERE user = p_name)
            AND NOT EXISTS (SELECT 1 FROM integration_account WHERE name = p_name) THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: an account of that name exists already and is not a Copydesk integration account';
    END IF;
    IF p_password IS NULL OR CHAR_LENGTH(p_password) < 12 THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: an integration account''s password has at least 12 characters';
    END IF;
    INSERT INTO integration_account (name, kind, created_by, created_at) VALUES (p_name, p_kind, v_actor, server_utc_now())
    ON DUPLICATE KEY UPDATE kind = VALUES(kind);
    CALL run_account_statement(CONCAT('CREATE USER IF NOT EXISTS ', QUOTE(p_name), '@''%'' IDENTIFIED BY ', QUOTE(p_password)));
    CALL run_account_statement(CONCAT('ALTER USER ', QUOTE(p_name), '@''%'' IDENTIFIED BY ', QUOTE(p_password)));
    CALL apply_role(p_name, p_kind);
END$$

CREATE PROCEDURE drop_integration_account(IN p_name VARCHAR(64))
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_actor VARCHAR(64);
    CALL resolve_actor(NULL, 'admin', v_actor);
    IF NOT EXISTS (SELECT 1 FROM integration_account WHERE name = p_name) THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: there is no integration account of that name';
    END IF;
    CALL run_account_statement(CONCAT('DROP USER IF EXISTS ', QUOTE(p_name), '@''%'''));
    DELETE FROM integration_account WHERE name = p_name;
END$$

DELIMITER ;

-- Recreating a routine drops its grants, and every role gains the feed: give each account its
-- role's grants again (as V7 does).
CALL regrant_accounts();

-- [jooq ignore stop]
