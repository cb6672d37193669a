DROP PROCEDURE IF EXISTS operation_begins;

DELIMITER $$

-- The first thing every operation does, so that nothing the caller's session did or set reaches
-- into it, and nothing it does outlives it:
--  * refuses to run inside a caller's transaction: a plain one is rolled back (so no lock the
--    caller took stays held) and the operation refused (on MariaDB, which says whether one is open;
--    MySQL has no such variable, so there the rollback ends it and the operation runs on, holding
--    nothing in it); inside a caller's XA transaction (which would outlive the caller's connection,
--    locks and all) ROLLBACK fails, and the operation is refused;
--  * pins every session setting the operations' statements depend on, whatever the caller set. A
--    routine's SQL mode is the one it was created with, whatever the session's; everything else a
--    caller can SET reaches into a definer routine, so each setting below is set here, with why:
--      autocommit = 1             every statement its own transaction unless the operation starts one
--      READ COMMITTED, READ WRITE the isolation the claims were measured with; a session that is
--                                 READ ONLY would make every write fail (1792)
--      completion_type = NO_CHAIN CHAIN would leave an operation's later statements in a transaction
--                                 that outlives the call, locks and all; RELEASE ends the connection
--                                 at the operation's first COMMIT, half done
--      foreign_key_checks, unique_checks = 1, (MariaDB) check_constraint_checks = 1: rows that
--                                 break the schema's rules are refused
--      time_zone = '+00:00'       times are UTC
--      optimizer_switch, optimizer_search_depth, optimizer_prune_level, eq_range_index_dive_limit,
--      (MariaDB) optimizer_use_condition_selectivity, in_predicate_conversion_threshold,
--      optimizer_max_sel_arg_weight, join_cache_level, (MySQL) range_optimizer_max_mem_size: the
--                                 server's own (global) values: a plan that walks the whole table
--                                 locks every row a claim's locking read scans (a tiny
--                                 range_optimizer_max_mem_size or optimizer_max_sel_arg_weight
--                                 gives up on the index range)
--      max_join_size = DEFAULT, sql_big_selects = 1: a small max_join_size made the sweep's
--                                 queries fail ("would examine more than MAX_JOIN_SIZE rows")
--      sql_select_limit = DEFAULT no cut-off result (the servers exempt routines today; pinned so
--                                 no version's change can make an answer short)
--      sql_safe_updates = 0       safe-update mode refuses an UPDATE or DELETE whose WHERE uses no
--                                 key (1175), as the sweep's pruning of old callers does
--      sql_auto_is_null = 0       "auto_increment_column IS NULL" would find the row just inserted
--      auto_increment_increment, auto_increment_offset = DEFAULT (the server's: on Galera each node's
--                                 own), and (MariaDB) insert_id = 0: a caller's values would pick the
--                                 ids of the rows an operation writes: a forced id taken fails the
--                                 insert, and the largest id there is would leave no id for anyone's
--                                 next row. MySQL forces the next id even at 0, so there an
--                                 operation is refused while the session has SET insert_id
--      div_precision_increment = 4 the precision the routines' arithmetic was written for (the
--                                 sweep's pacing divides)
--      (MariaDB) max_error_count = at least 64: with 0, a handler's GET DIAGNOSTICS finds no condition
--                                 and an operation cannot tell what failed (MySQL lets only an
--                                 account with SESSION_VARIABLES_ADMIN set it)
--      max_sort_length, sort_buffer_size, join_buffer_size, tmp_table_size, max_heap_table_size =
--                                 DEFAULT: a tiny value makes sorts and groupings compare truncated
--                                 values, or run out of memory, or spill to disk and hold locks longer
--      group_concat_max_len = 1048576: whole lists from GROUP_CONCAT
--      innodb_lock_wait_timeout, lock_wait_timeout = 5: lock waits of at most 5 s (rows, metadata)
--    Left as the caller set them: (MariaDB) max_statement_time, because a tiny one fails only the
--    caller's own operation, which its handler rolls back whole (and a sweep that failed leaves the
--    turn due), and a caller may lift its own again at any statement, so setting it back once per
--    operation bounds nothing (reading the account's limit for it cost 0.09 to 0.12 ms a call).
--    And these, because they cannot make a statement of an operation fail or do less: sql_buffer_result, big_tables and max_length_for_sort_data (speed only; setting the last
--    two warns on newer servers), low_priority_updates (table-level locks only, not InnoDB's),
--    updatable_views_with_limit (no operation writes through a view), max_recursive_iterations /
--    cte_max_recursion_depth (no recursive query), max_sp_recursion_depth (no routine calls
--    itself), last_insert_id (read only right after the operation's own INSERT, which sets it),
--    rand_seed1/2 (only where a claim starts among the candidates), lc_time_names (dates are
--    formatted as numbers), lc_messages (the words of a refusal), character sets and collations (the
--    routines' literals and parameters carry their own), MySQL's max_execution_time (only
--    top-level SELECTs), and settings that need a right no person has (pseudo_thread_id,
--    sql_log_bin, sql_log_off). Settings the server reads while parsing a routine (old_mode) act
--    before this runs; the routines are written not to depend on them.
-- Internal: granted to nobody; the operations call it.
CREATE PROCEDURE operation_begins()
    SQL SECURITY DEFINER NO SQL
BEGIN
    DECLARE EXIT HANDLER FOR 1399, 1400
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: an operation runs in a transaction of its own; end your XA transaction first (XA END, XA ROLLBACK)';
    -- An honest session (Copydesk's own) has every setting below as an operation set it before, and
    -- no transaction open: one test, and nothing set. A session where any one differs, or (MariaDB)
    -- where a transaction is open, has them all set again, the transaction ended first. (Set one
    -- statement each, every time, they were 16 of the 19 statements of every operation's start:
    -- docs/benchmarks.md, "What each statement inside the routines buys".) Every setting here has a
    -- value a session can read; the two that are not compared are set every time, below.
    IF @@SESSION.completion_type <> 'NO_CHAIN' OR @@SESSION.autocommit <> 1
       OR @@SESSION.foreign_key_checks <> 1 OR @@SESSION.unique_checks <> 1 OR @@SESSION.time_zone <> '+00:00'
       OR @@SESSION.group_concat_max_len <> 1048576
       OR @@SESSION.innodb_lock_wait_timeout <> 5 OR @@SESSION.lock_wait_timeout <> 5
       OR @@SESSION.optimizer_search_depth <> @@GLOBAL.optimizer_search_depth
       OR @@SESSION.optimizer_prune_level <> @@GLOBAL.optimizer_prune_level
       OR @@SESSION.eq_range_index_dive_limit <> @@GLOBAL.eq_range_index_dive_limit
       OR @@SESSION.max_join_size <> @@GLOBAL.max_join_size OR @@SESSION.sql_big_selects = 0
       OR @@SESSION.sql_select_limit <> @@GLOBAL.sql_select_limit OR @@SESSION.sql_safe_updates = 1
       OR @@SESSION.sql_auto_is_null = 1
       OR @@SESSION.auto_increment_increment <> @@GLOBAL.auto_increment_increment
       OR @@SESSION.auto_increment_offset <> @@GLOBAL.auto_increment_offset
       OR @@SESSION.div_precision_increment <> 4
       OR @@SESSION.max_sort_length <> @@GLOBAL.max_sort_length OR @@SESSION.sort_buffer_size <> @@GLOBAL.sort_buffer_size
       OR @@SESSION.join_buffer_size <> @@GLOBAL.join_buffer_size OR @@SESSION.tmp_table_size <> @@GLOBAL.tmp_table_size
       OR @@SESSION.max_heap_table_size <> @@GLOBAL.max_heap_table_size
       /*M!100200 OR @@in_transaction = 1 */
       /*M!100201 OR @@SESSION.check_constraint_checks <> 1 */
       /*M!100600 OR @@SESSION.max_error_count < 64 OR @@SESSION.insert_id <> 0
       OR @@SESSION.optimizer_use_condition_selectivity <> @@GLOBAL.optimizer_use_condition_selectivity
       OR @@SESSION.in_predicate_conversion_threshold <> @@GLOBAL.in_predicate_conversion_threshold
       OR @@SESSION.optimizer_max_sel_arg_weight <> @@GLOBAL.optimizer_max_sel_arg_weight
       OR @@SESSION.join_cache_level <> @@GLOBAL.join_cache_level */
       /*!80000 OR @@SESSION.range_optimizer_max_mem_size <> @@GLOBAL.range_optimizer_max_mem_size */ THEN
        BEGIN
            DECLARE v_callers_transaction INT DEFAULT 0;
            /*M!100200 SET v_callers_transaction = @@in_transaction; */
            -- before the ROLLBACK: CHAIN would open a new transaction with it, RELEASE end the connection
            SET SESSION completion_type = 'NO_CHAIN';
            ROLLBACK;
            SET SESSION autocommit = 1, foreign_key_checks = 1, unique_checks = 1, time_zone = '+00:00',
                group_concat_max_len = 1048576,
                innodb_lock_wait_timeout = 5, lock_wait_timeout = 5,
                optimizer_search_depth = DEFAULT, optimizer_prune_level = DEFAULT, eq_range_index_dive_limit = DEFAULT,
                max_join_size = DEFAULT, sql_big_selects = 1, sql_select_limit = DEFAULT, sql_safe_updates = 0,
                sql_auto_is_null = 0, auto_increment_increment = DEFAULT, auto_increment_offset = DEFAULT,
                div_precision_increment = 4, max_sort_length = DEFAULT, sort_buffer_size = DEFAULT,
                join_buffer_size = DEFAULT, tmp_table_size = DEFAULT, max_heap_table_size = DEFAULT;
            /*M!100201 SET SESSION check_constraint_checks = 1; */
            /*M!100600 SET SESSION max_error_count = GREATEST(@@GLOBAL.max_error_count, 64), optimizer_use_condition_selectivity = DEFAULT,
                in_predicate_conversion_threshold = DEFAULT, optimizer_max_sel_arg_weight = DEFAULT, join_cache_level = DEFAULT,
                insert_id = 0; */
            /*!80000 SET SESSION range_optimizer_max_mem_size = DEFAULT; */
            IF v_callers_transaction = 1 THEN
                -- 40001, "rolled back: run it again": the transaction is gone now, so the same call goes
                -- through the next time. Copydesk's clients never open one, but an earlier operation cut
                -- short where its handler could not roll back (seen under the hostile soak) leaves one on a
                -- pooled connection; their retry loop takes 40001 as a conflict and calls again, unseen
                SIGNAL SQLSTATE '40001' SET MESSAGE_TEXT = 'Copydesk: an operation runs in a transaction of its own; your open transaction was rolled back (use autocommit)';
            END IF;
        END;
    END IF;
    -- MySQL cannot tell whether a transaction is open: there the ROLLBACK ends any, every time, and
    -- the operation runs on, holding nothing of it
    /*!80000 ROLLBACK; */
    -- Set every time: a one-shot SET TRANSACTION (the next transaction only) shows in no variable, and
    -- comparing optimizer_switch (a list of 30-odd flags built as text at each read) cost 6 us a call
    -- against 0.2 for setting it
    SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED, READ WRITE;
    SET SESSION optimizer_switch = DEFAULT;
    /*!80000 IF @@SESSION.insert_id <> 0 THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: SET insert_id would choose the id of a row an operation writes; sign in again without it';
    END IF; */
END$$

DELIMITER ;
