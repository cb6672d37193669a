DROP PROCEDURE IF EXISTS operation_begins;

DELIMITER $$

-- The first thing every operation does, so that nothing the caller's session did or set reaches
-- into it, and nothing it does outlives it:
--  * refuses to run inside a caller's transaction: a plain one is rolled back (so no lock the
--    caller took stays held) and the operation refused (on MariaDB, which says whether one is open;
--    MySQL has no such variable, so there the rollback ends it and the operation runs on, holding
--    nothing in it); inside a caller's XA transaction (which would outlive the caller's connection,
--    locks and all) ROLLBACK fails, and the operation is refused;
--  * pins the session settings the operations rely on, whatever the caller set: every statement
--    its own transaction unless the operation starts one (autocommit), READ COMMITTED, foreign
--    keys, unique checks and (MariaDB) CHECK constraints enforced, UTC, the optimizer's defaults (a
--    claim that walked the whole table would lock every row it scanned), whole lists from
--    GROUP_CONCAT, and lock waits of at most 5 s (rows) and 5 s (metadata). A routine's SQL mode is
--    the one it was created with, whatever the session's.
-- Internal: granted to nobody; the operations call it.
CREATE PROCEDURE operation_begins()
    SQL SECURITY DEFINER NO SQL
BEGIN
    DECLARE v_callers_transaction INT DEFAULT 0;
    DECLARE EXIT HANDLER FOR 1399, 1400
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: an operation runs in a transaction of its own; end your XA transaction first (XA END, XA ROLLBACK)';
    /*M!100200 SET v_callers_transaction = @@in_transaction; */
    ROLLBACK;
    SET SESSION autocommit = 1, foreign_key_checks = 1, unique_checks = 1, time_zone = '+00:00',
        optimizer_switch = 'default', group_concat_max_len = 1048576,
        innodb_lock_wait_timeout = 5, lock_wait_timeout = 5;
    /*M!100201 SET SESSION check_constraint_checks = 1; */
    SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED;
    IF v_callers_transaction = 1 THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: an operation runs in a transaction of its own; your open transaction was rolled back (call operations with autocommit on)';
    END IF;
END$$

DELIMITER ;
