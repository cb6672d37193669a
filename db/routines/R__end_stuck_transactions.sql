DROP PROCEDURE IF EXISTS end_stuck_transactions;

DELIMITER $$

-- Ends the connections of people (editors and supervisors, never administrators) and of other
-- systems' accounts whose open transaction has held row locks for more than p_seconds (at least 3)
-- while not inside one of the database's operations. Copydesk's own work never keeps a transaction open
-- between calls, so such a transaction is a raw session holding `SELECT ... FOR UPDATE` / `FOR
-- SHARE` on rows others need. Every client's release service calls this, so nobody can block
-- others' claims and renewals for longer than a few seconds.
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
          -- and other systems' accounts (a feed reader's FOR UPDATE on the view locks outcome rows)
          JOIN (SELECT id FROM editor WHERE role IN ('editor', 'supervisor')
                UNION SELECT name FROM integration_account) e ON e.id = p.user
         WHERE t.trx_rows_locked > 0
           AND TIMESTAMPDIFF(SECOND, t.trx_started, SYSDATE()) > GREATEST(3, COALESCE(p_seconds, 5))
           -- not one of the operations at work (a large import batch may take longer): they
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

DELIMITER ;
