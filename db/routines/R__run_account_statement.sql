DROP PROCEDURE IF EXISTS run_account_statement;

DELIMITER $$

-- Runs one account statement built by the account operations (apply_role, create_account, …).
-- Not granted to anyone. (PREPARE takes only a user variable; it is set right here, so nothing the
-- caller set before is used.)
-- PREPARE needs one of the server's prepared statements, and their number is server-wide
-- (max_prepared_stmt_count, 16,382 by default): one editor's sessions can hold them all in seconds
-- (PREPARE s1 … s16500 from a raw session), and every account statement would then fail with 1461
-- — suspending that very account too. So on 1461 the newsroom session that holds the most is ended
-- (an editor's, a supervisor's or another system's account that Copydesk made: managed_account;
-- never an admin's, the owner's or another application's) and the statement tried again, up to
-- twelve times (an account's max_user_connections). Who holds the most: on MariaDB the session
-- using the most memory (PROCESSLIST.MEMORY_USED; a prepared statement costs about 32 KiB there, and
-- only sessions above a quarter of session_limit.memory_bytes are taken: Copydesk's own use a few
-- MiB); on MySQL the one with the most rows in performance_schema.prepared_statements_instances,
-- above 250 (Connector/J's cache of a Copydesk connection). The holder's account is suspended as
-- for held row locks (all its sessions ended, locked for suspend_seconds): no honest client holds
-- that many.
CREATE PROCEDURE run_account_statement(IN p_sql TEXT)
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_full INT;
    DECLARE v_tries INT DEFAULT 0;
    DECLARE v_holder BIGINT;
    DECLARE v_account VARCHAR(64);
    DECLARE v_memory BIGINT;
    DECLARE v_suspend INT;
    DECLARE v_now DATETIME(6);
    DECLARE v_until DATETIME(6);
    DECLARE v_to_lock LONGTEXT DEFAULT '[]';
    DECLARE v_i INT DEFAULT 0;
    DECLARE CONTINUE HANDLER FOR NOT FOUND SET v_holder = NULL;
    each_try: LOOP
        SET v_full = 0;
        SET @copydesk_account_statement = p_sql;
        BEGIN
            -- 1461: Can't create more than max_prepared_stmt_count statements
            DECLARE EXIT HANDLER FOR 1461 SET v_full = 1;
            PREPARE account_statement FROM @copydesk_account_statement;
        END;
        IF v_full = 0 THEN
            LEAVE each_try;
        END IF;
        SET v_holder = NULL;
        IF v_tries < 12 THEN
            SELECT memory_bytes, suspend_seconds INTO v_memory, v_suspend FROM session_limit WHERE id = 1;
            /*M!100000 SELECT p.id, p.user INTO v_holder, v_account
              FROM information_schema.processlist p
             WHERE p.id <> CONNECTION_ID() AND p.memory_used > v_memory / 4
               AND p.user IN (SELECT name FROM managed_account WHERE role <> 'admin')
             ORDER BY p.memory_used DESC LIMIT 1; */
            /*!80000 BEGIN
                -- 1142: the owner may not read them (GRANT SELECT ON performance_schema.prepared_statements_instances
                -- and performance_schema.threads: docs/security.md); the statement then fails in plain words below
                DECLARE CONTINUE HANDLER FOR 1142 SET v_holder = NULL;
                SELECT t.processlist_id, t.processlist_user INTO v_holder, v_account
                  FROM performance_schema.prepared_statements_instances s
                  JOIN performance_schema.threads t ON t.thread_id = s.owner_thread_id
                 WHERE t.processlist_id <> CONNECTION_ID()
                   AND t.processlist_user IN (SELECT name FROM managed_account WHERE role <> 'admin')
                 GROUP BY t.processlist_id, t.processlist_user HAVING COUNT(*) > 250
                 ORDER BY COUNT(*) DESC LIMIT 1;
            END; */
        END IF;
        IF v_holder IS NULL THEN
            SET @copydesk_account_statement = NULL;
            SIGNAL SQLSTATE 'HY000' SET MYSQL_ERRNO = 1461, MESSAGE_TEXT =
                'Copydesk: the server''s prepared statements are all in use (max_prepared_stmt_count), not by a session Copydesk may end';
        END IF;
        SET v_now = server_utc_now();
        SET v_until = IF(v_suspend > 0, TIMESTAMPADD(SECOND, v_suspend, v_now), NULL);
        INSERT IGNORE INTO ended_session (ended_at, account, connection_id, reason, suspended_until)
        VALUES (v_now, v_account, v_holder, 'prepared statements', v_until);
        -- suspend_account's work, done here (a routine may not call itself: suspend_account runs an
        -- account statement): every session of the account is ended, and the account locked once a
        -- statement can be prepared again
        IF v_until IS NOT NULL THEN
            SET v_to_lock = JSON_ARRAY_APPEND(v_to_lock, '$', v_account);
            INSERT INTO account_suspension (account, suspended_at, suspended_until) VALUES (v_account, v_now, v_until)
            ON DUPLICATE KEY UPDATE suspended_until = GREATEST(suspended_until, VALUES(suspended_until));
        END IF;
        BEGIN
            DECLARE v_done INT DEFAULT 0;
            DECLARE v_thread BIGINT;
            DECLARE sessions CURSOR FOR SELECT id FROM information_schema.processlist WHERE user = v_account AND id <> CONNECTION_ID();
            DECLARE CONTINUE HANDLER FOR NOT FOUND SET v_done = 1;
            OPEN sessions;
            each_session: LOOP
                FETCH sessions INTO v_thread;
                IF v_done = 1 THEN LEAVE each_session; END IF;
                BEGIN
                    -- it may have ended by itself meanwhile
                    DECLARE CONTINUE HANDLER FOR SQLEXCEPTION BEGIN END;
                    KILL CONNECTION v_thread;
                END;
            END LOOP;
            CLOSE sessions;
        END;
        -- the ended sessions give their statements back as they end, a moment after KILL returns
        DO SLEEP(0.2);
        SET v_tries = v_tries + 1;
    END LOOP;
    EXECUTE account_statement;
    DEALLOCATE PREPARE account_statement;
    SET @copydesk_account_statement = NULL;
    -- the accounts whose sessions held the statements (above): names of managed_account, quoted
    WHILE v_i < JSON_LENGTH(v_to_lock) DO
        SET @copydesk_account_statement = CONCAT('ALTER USER ', QUOTE(JSON_UNQUOTE(JSON_EXTRACT(v_to_lock, CONCAT('$[', v_i, ']')))),
                                                 '@''%'' ACCOUNT LOCK');
        PREPARE account_statement FROM @copydesk_account_statement;
        EXECUTE account_statement;
        DEALLOCATE PREPARE account_statement;
        SET @copydesk_account_statement = NULL;
        SET v_i = v_i + 1;
    END WHILE;
END$$

DELIMITER ;
