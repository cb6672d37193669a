DROP PROCEDURE IF EXISTS note_prepared_xa;

DELIMITER $$

-- The XA half of the sweep, after abandoned_xa_transactions listed them: notes that these prepared
-- XA transactions were seen now, and answers which of them have been seen for longer than
-- session_limit.xa_seconds (0: none ever), which the sweep then rolls back. Whoever sweeps, the
-- time counts from the first listing by any client, on the server's clock. p_xids: a JSON array
-- of at most 100 ids, each 'format:gtrid:bqual' with the two parts as lowercase hex; anything
-- else is refused. An id not listed for a minute (or xa_seconds, if longer) starts again: a
-- caller who sends nothing, or other ids, cannot hold back the rollback of one that stays prepared,
-- and one who sends an id early gains nothing, since anyone may roll back a prepared XA
-- transaction by its id. Each account's notes are its own rows (V21), at most 200 of them: a flood of
-- made-up ids pushes out only the flooder's own, and the time of an id counts from the earliest row
-- of any account, so nobody restarts another's count. Unseen rows are forgotten at most 100 per call,
-- so a call costs about the same whatever was written before. Result: xid of each one due.
CREATE PROCEDURE note_prepared_xa(IN p_xids TEXT)
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_actor VARCHAR(64);
    DECLARE v_now DATETIME(6);
    DECLARE v_limit INT;
    DECLARE v_forget_before DATETIME(6);
    DECLARE v_xid VARCHAR(300);
    DECLARE v_first DATETIME(6);
    DECLARE v_i INT DEFAULT 0;
    DECLARE v_out TEXT DEFAULT '[]';
    DECLARE v_rows INT;
    -- an account's rows beyond this many go, longest-unseen first (a sweep notes at most 100 per call)
    DECLARE v_rows_per_account INT DEFAULT 200;
    -- unseen rows forgotten per call: bounded, so one call never pays for a flood (with the cap per
    -- account there are at most 200 rows per account to forget, and every client calls every few seconds)
    DECLARE v_forget_per_call INT DEFAULT 100;
    DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN CALL operation_fails(); RESIGNAL; END;
    CALL operation_begins();
    CALL resolve_actor(NULL, 'editor', v_actor);
    IF p_xids IS NULL OR JSON_VALID(p_xids) = 0 OR JSON_TYPE(p_xids) <> 'ARRAY' OR JSON_LENGTH(p_xids) > 100 THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: the XA ids must be a list of at most 100';
    END IF;
    SELECT xa_seconds INTO v_limit FROM session_limit WHERE id = 1;
    SET v_now = server_utc_now();
    SET v_forget_before = TIMESTAMPADD(SECOND, -GREATEST(v_limit, 60), v_now);
    DELETE FROM prepared_xa WHERE last_seen < v_forget_before ORDER BY last_seen LIMIT v_forget_per_call;
    WHILE v_i < JSON_LENGTH(p_xids) DO
        SET v_xid = JSON_UNQUOTE(JSON_EXTRACT(p_xids, CONCAT('$[', v_i, ']')));
        SET v_i = v_i + 1;
        -- the pattern on the text as it is (MySQL 8 refuses REGEXP on a binary string), lowercase checked apart
        IF v_xid IS NULL OR NOT (v_xid REGEXP '^[0-9]{1,20}:[0-9a-f]{0,128}:[0-9a-f]{0,128}$')
                OR BINARY LOWER(v_xid) <> BINARY v_xid THEN
            SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: an XA id must be format:gtrid:bqual in hex';
        END IF;
        INSERT INTO prepared_xa (xid, noted_by, first_seen, last_seen) VALUES (v_xid, v_actor, v_now, v_now)
            ON DUPLICATE KEY UPDATE last_seen = v_now;
        -- rows unseen for longer than the forgetting time count as gone, whether or not deleted yet
        SELECT MIN(first_seen) INTO v_first FROM prepared_xa WHERE xid = v_xid AND last_seen >= v_forget_before;
        IF v_limit > 0 AND v_first <= TIMESTAMPADD(SECOND, -v_limit, v_now) THEN
            SET v_out = JSON_ARRAY_APPEND(v_out, '$', v_xid);
        END IF;
    END WHILE;
    SELECT COUNT(*) INTO v_rows FROM prepared_xa WHERE noted_by = v_actor;
    IF v_rows > v_rows_per_account THEN
        SET v_rows = v_rows - v_rows_per_account;
        DELETE FROM prepared_xa WHERE noted_by = v_actor ORDER BY last_seen, xid LIMIT v_rows;
    END IF;
    SELECT r.xid FROM JSON_TABLE(v_out, '$[*]' COLUMNS (xid VARCHAR(300) PATH '$')) r;
END$$

DELIMITER ;
