DROP PROCEDURE IF EXISTS end_stuck_sessions;

DELIMITER $$

-- The sweep's database half (SessionSweep runs it): ends what a raw session of a person or of another
-- system can hold that blocks others, within the limits of session_limit. Copydesk's own work
-- never keeps a transaction open between operations, and an operation is never a candidate: inside
-- a SQL SECURITY DEFINER routine the process list names the routine's owner, not the caller, so an
-- operation waiting behind someone else's locks is not taken for the one holding them. Between
-- two operations (or before a routine's body begins) the session is named by its own account, and
-- the process list and InnoDB's list of transactions are two snapshots, not one: InnoDB refreshes
-- its list at most every 0.1 s, so one look can pair a session that has just left an operation with
-- the transaction that operation had a moment ago (one that waited seconds behind a lock, and looks
-- old). So a session is ended only when two looks half a second apart both find it, for the same
-- reason, with the same transaction (id and start): an operation's transaction cannot outlive its
-- call, a holder's does. Nothing else spares a session: a CALL that is still evaluating its
-- arguments runs in the caller's transaction, locks and all. Only sessions of the newsroom's own
-- editors', supervisors' and other systems' accounts are candidates (managed_account: accounts that
-- Copydesk made, which no admin can fake by writing rows of `editor`); administrators', the owner's,
-- root's, a DBA's and another application's sessions are never touched.
--  * a transaction that has held row locks for longer than lock_seconds: the connection is ended
--    and the account suspended for suspend_seconds (locked; its other sessions ended too). Locks
--    come from locking reads, from any read inside a transaction at SERIALIZABLE, or from an XA
--    transaction; no grant can stop an account that reads a table from taking them;
--  * (MariaDB) a session using more memory than memory_bytes (PROCESSLIST.MEMORY_USED: user
--    variables, prepared statements, open HANDLERs; any session may lift its own
--    max_session_mem_used): the connection is ended and the account suspended, as for row locks
--    (Copydesk's own sessions use a few MiB between operations);
--  * a transaction open and idle for longer than idle_seconds (it holds metadata locks a schema
--    change would wait for, and keeps old row versions alive): the connection is ended;
--  * a statement running longer than statement_seconds: the statement is stopped.
-- Suspensions whose time is up are lifted. Each ending is kept in ended_session. Needs the owner's
-- PROCESS (to see others' transactions) and CONNECTION ADMIN / CONNECTION_ADMIN (to end them).
-- Result: account, connection_id, reason, suspended_until of each session ended.
CREATE PROCEDURE end_stuck_sessions()
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_actor VARCHAR(64);
    DECLARE v_now DATETIME(6);
    DECLARE v_lock INT;
    DECLARE v_idle INT;
    DECLARE v_statement INT;
    DECLARE v_suspend INT;
    DECLARE v_memory BIGINT;
    DECLARE v_thread BIGINT;
    DECLARE v_account VARCHAR(64);
    DECLARE v_reason VARCHAR(32);
    DECLARE v_until DATETIME(6);
    DECLARE v_ended INT;
    DECLARE v_done INT DEFAULT 0;
    DECLARE v_out LONGTEXT DEFAULT '[]';
    DECLARE v_look INT DEFAULT 0;
    DECLARE v_seen LONGTEXT; -- one look: [[connection id, account, reason, transaction], …] (NULL: none)
    DECLARE v_first LONGTEXT;
    DECLARE v_second LONGTEXT;
    DECLARE stuck CURSOR FOR SELECT a.id, a.account, a.reason
          FROM JSON_TABLE(COALESCE(v_first, '[]'), '$[*]' COLUMNS (id BIGINT PATH '$[0]', account VARCHAR(64) PATH '$[1]',
                                                                 reason VARCHAR(32) PATH '$[2]', trx VARCHAR(80) PATH '$[3]')) a
          JOIN JSON_TABLE(COALESCE(v_second, '[]'), '$[*]' COLUMNS (id BIGINT PATH '$[0]', account VARCHAR(64) PATH '$[1]',
                                                                  reason VARCHAR(32) PATH '$[2]', trx VARCHAR(80) PATH '$[3]')) b
            ON b.id = a.id AND b.account = a.account AND b.reason = a.reason AND b.trx = a.trx
         ORDER BY a.id;
    DECLARE CONTINUE HANDLER FOR NOT FOUND SET v_done = 1;
    CALL operation_begins();
    CALL resolve_actor(NULL, 'editor', v_actor);
    SELECT lock_seconds, idle_seconds, statement_seconds, suspend_seconds, memory_bytes
      INTO v_lock, v_idle, v_statement, v_suspend, v_memory
      FROM session_limit WHERE id = 1;
    SET v_now = server_utc_now();
    looks: WHILE v_look < 2 DO
        SELECT JSON_ARRAYAGG(JSON_ARRAY(s.id, s.account, s.reason, s.trx)) INTO v_seen FROM (
            SELECT p.id, p.user AS account, CONCAT(COALESCE(t.trx_id, ''), '@', COALESCE(t.trx_started, '')) AS trx,
                   CASE WHEN t.trx_id IS NOT NULL AND (t.trx_rows_locked > 0 OR t.trx_lock_structs > 0)
                             AND TIMESTAMPDIFF(MICROSECOND, t.trx_started, SYSDATE(6)) > v_lock * 1000000
                            THEN 'held row locks'
                        /*M!100000 WHEN p.memory_used > v_memory THEN 'too much memory' */
                        WHEN t.trx_id IS NOT NULL AND p.command = 'Sleep'
                             AND TIMESTAMPDIFF(MICROSECOND, t.trx_started, SYSDATE(6)) > v_idle * 1000000
                            THEN 'idle transaction'
                        WHEN p.command = 'Query' AND p.time > v_statement
                            THEN 'long statement'
                   END AS reason
              FROM information_schema.processlist p
              LEFT JOIN information_schema.innodb_trx t ON t.trx_mysql_thread_id = p.id
             WHERE p.id <> CONNECTION_ID()
               AND p.user IN (SELECT name FROM managed_account WHERE role <> 'admin')) s
         WHERE s.reason IS NOT NULL;
        IF v_look = 0 THEN
            SET v_first = v_seen;
            IF v_first IS NULL THEN
                LEAVE looks; -- nothing stuck: the usual case costs one look
            END IF;
            -- past InnoDB's 0.1 s refresh of its list, so the second look is a new one; a sleep cut
            -- short (the caller's statement time limit) answers 1: two looks too close together could
            -- take a session that just left an operation for a holder, so the sweep stops there
            IF SLEEP(0.5) <> 0 THEN
                SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: the sweep was interrupted between its two looks';
            END IF;
        ELSE
            SET v_second = v_seen;
        END IF;
        SET v_look = v_look + 1;
    END WHILE;
    OPEN stuck;
    each_session: LOOP
        FETCH stuck INTO v_thread, v_account, v_reason;
        IF v_done = 1 THEN LEAVE each_session; END IF;
        SET v_ended = 1;
        SET v_until = NULL;
        BEGIN
            -- it may have ended by itself meanwhile, or another client's sweep ended it first
            DECLARE CONTINUE HANDLER FOR SQLEXCEPTION SET v_ended = 0;
            IF v_reason = 'long statement' THEN
                KILL QUERY v_thread;
            ELSE
                KILL CONNECTION v_thread;
            END IF;
        END;
        IF v_ended = 1 THEN
            IF v_reason IN ('held row locks', 'too much memory') AND v_suspend > 0 THEN
                SET v_until = TIMESTAMPADD(SECOND, v_suspend, v_now);
                CALL suspend_account(v_account, v_until);
            END IF;
            INSERT IGNORE INTO ended_session (ended_at, account, connection_id, reason, suspended_until)
            VALUES (v_now, v_account, v_thread, v_reason, v_until);
            SET v_out = JSON_ARRAY_APPEND(v_out, '$', JSON_ARRAY(v_account, v_thread, v_reason,
                                                                 DATE_FORMAT(v_until, '%Y-%m-%d %H:%i:%s.%f')));
        END IF;
    END LOOP;
    CLOSE stuck;
    CALL lift_lapsed_suspensions(v_now);
    SELECT r.account, r.connection_id, r.reason, CAST(r.suspended_until AS DATETIME(6)) AS suspended_until
      FROM JSON_TABLE(v_out, '$[*]' COLUMNS (account VARCHAR(64) PATH '$[0]', connection_id BIGINT PATH '$[1]',
                                             reason VARCHAR(32) PATH '$[2]', suspended_until VARCHAR(32) PATH '$[3]')) r;
END$$

DELIMITER ;
