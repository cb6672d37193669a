DROP PROCEDURE IF EXISTS take_sweep_turn;

DELIMITER $$

-- The release service's tick (every client runs one every interval, and so does copydesk
-- release-daemon): takes the newsroom's sweep turn when it is due, and then does the sweep in the
-- same call, so the sweep's work is done once per interval for the whole newsroom, whoever asks
-- first, and taking the turn is never a way to keep others from sweeping. Whoever takes the turn,
-- every caller gets the prepared XA transactions (XA RECOVER, with the owner's right to list
-- everyone's; usually none): only a client can roll one back, so every client looks at them every
-- interval, and an account that takes every turn cannot keep the others from rolling back the XA
-- transaction it abandoned. When the turn is not due the call reads one row, lists the prepared XA
-- transactions and returns, having locked nothing.
--  * The turn is taken by moving sweep_turn.due_at on by three quarters of the interval (so a
--    caller whose tick comes a little early, on a loaded machine, still finds it due), on the
--    server's own clock (server_utc_now(): the session's @@timestamp does not move it). The
--    interval is the caller's p_interval_ms, at least 50 ms and at most longest_interval_ms: no
--    caller can push the next sweep further off than the house interval.
--  * The taker ends stuck sessions (end_stuck_sessions, at most once per interval; a failure there
--    does not stop the rest), frees one chunk of up to 100 lapsed leases (release_expired_leases),
--    tells up to 100 missed deadlines (report_missed_deadlines), whatever the caller asked, and
--    forecasts up to 2 desks whose minute has come (report_deadlines_at_risk: deadline_at_risk).
--  * A sweep that failed does not use up the turn: when anything after the turn was taken fails
--    (the book-keeping, end_stuck_sessions or release_expired_leases), the turn is left due again
--    (and the stuck-session sweep too, when that part failed), so the next caller sweeps; an
--    account that makes its own sweeps fail (a session setting operation_begins does not pin, a
--    statement time limit that stops its own call) cannot keep everyone's sweep from happening by
--    taking every turn. The one failure left counted as a sweep is the owner lacking a right
--    (PROCESS, CONNECTION ADMIN: error 1227, 1142, 1143, 1370): every caller's sweep would fail
--    the same way, and copydesk doctor names it.
--  * While lapsed leases or untold missed deadlines remain after that chunk, the turn is left
--    due, so the next caller (the taker going on with its paced chunks, or anyone) does the next.
--  * A failure of the turn (a lock wait on the turn's row, a failed chunk) does not stop the XA
--    list: it is told in a result of its own, before the list.
--  * Pacing: each call notes its account in sweep_caller (one row per account, however many
--    sessions or calls), and the taker counts the accounts that called within the last 24 longest
--    intervals into sweep_turn.callers (dropping older rows). Every call answers next_call_ms: how
--    long the caller should wait before its next call, so that the newsroom's clients between them
--    call about 20 times per interval: the interval itself up to 20 callers, then one interval per
--    20 callers, at most 12 intervals (a minute at the house's 5 s). A turn is then taken within about
--    a twentieth of an interval of falling due, and prepared XA transactions are listed to some
--    client as often, whoever takes the turns; a caller counts once however often it calls, so no
--    account can make the others call less often than the clients there are would.
-- Result 1: taken (1: this call swept), sessions_swept (1: stuck sessions were looked at),
-- xa_seconds (session_limit's: how long a prepared XA transaction may stay; 0: leave them alone),
-- next_call_ms (how long to wait before the next call; null when the turn's row could not be read).
-- When taken, then end_stuck_sessions's result (when sessions_swept and it ran) and
-- release_expired_leases's. When the turn failed, sweep_failed (the server's words). Last, XA
-- RECOVER's rows (none when the owner may not list them: copydesk doctor says so).
CREATE PROCEDURE take_sweep_turn(IN p_interval_ms INT)
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_lapsed_left INT;
    DECLARE v_actor VARCHAR(64);
    DECLARE v_now DATETIME(6);
    DECLARE v_interval_ms INT;
    DECLARE v_xa_seconds INT;
    DECLARE v_due INT DEFAULT 0;
    DECLARE v_callers INT DEFAULT 0;
    DECLARE v_next_ms INT DEFAULT NULL;
    DECLARE v_taken INT DEFAULT 0;
    DECLARE v_sessions INT DEFAULT 0;
    DECLARE v_failed TEXT DEFAULT NULL;
    DECLARE v_errno INT;
    DECLARE v_turn_failed INT DEFAULT 0;
    DECLARE v_sessions_failed INT DEFAULT 0;
    DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN CALL operation_fails(); RESIGNAL; END;
    CALL operation_begins();
    CALL resolve_actor(NULL, 'editor', v_actor);
    SET v_now = server_utc_now();
    -- subqueries, not SELECT … INTO: no "no data" warning for the client's driver to ask about
    SELECT COALESCE((SELECT xa_seconds FROM session_limit WHERE id = 1), 0) INTO v_xa_seconds;
    BEGIN
        DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN
            GET DIAGNOSTICS CONDITION 1 v_failed = MESSAGE_TEXT;
            SET v_turn_failed = 1;
            CALL operation_fails();
        END;
        INSERT INTO sweep_caller (account, last_call_at) VALUES (v_actor, v_now)
            ON DUPLICATE KEY UPDATE last_call_at = v_now;
        -- a plain read first: the many callers whose turn it is not take no lock on the row (the row
        -- is always there: no "no data" warning for the client's driver to ask about)
        SELECT LEAST(GREATEST(COALESCE(p_interval_ms, longest_interval_ms), 50), longest_interval_ms), due_at <= v_now, callers
          INTO v_interval_ms, v_due, v_callers
          FROM sweep_turn WHERE id = 1;
        SET v_next_ms = v_interval_ms * LEAST(12, GREATEST(1, CEIL(v_callers / 20)));
        IF v_due = 1 THEN
            UPDATE sweep_turn
               SET due_at = TIMESTAMPADD(MICROSECOND, v_interval_ms * 750, v_now),
                   taken_by = v_actor, taken_at = v_now, turns_taken = turns_taken + 1
             WHERE id = 1 AND due_at <= v_now;
            SET v_taken = ROW_COUNT();
        END IF;
        IF v_taken = 1 THEN
            DELETE FROM sweep_caller
             WHERE last_call_at < TIMESTAMPADD(MICROSECOND, -24000 * (SELECT longest_interval_ms FROM sweep_turn WHERE id = 1), v_now);
            UPDATE sweep_turn SET callers = (SELECT COUNT(*) FROM sweep_caller) WHERE id = 1;
            UPDATE sweep_turn
               SET sessions_due_at = TIMESTAMPADD(MICROSECOND, v_interval_ms * 750, v_now), sessions_swept = sessions_swept + 1
             WHERE id = 1 AND sessions_due_at <= v_now;
            SET v_sessions = ROW_COUNT();
        END IF;
    END;
    SELECT v_taken AS taken, v_sessions AS sessions_swept, v_xa_seconds AS xa_seconds, v_next_ms AS next_call_ms;
    IF v_taken = 1 THEN
        BEGIN
            DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN
                GET DIAGNOSTICS CONDITION 1 v_failed = MESSAGE_TEXT;
                SET v_turn_failed = 1;
                CALL operation_fails();
            END;
            IF v_sessions = 1 THEN
                BEGIN
                    -- lapsed leases are freed all the same; a missing right of the owner's fails every
                    -- caller's sweep alike (copydesk doctor names it), anything else leaves the turn due
                    DECLARE CONTINUE HANDLER FOR SQLEXCEPTION BEGIN
                        GET DIAGNOSTICS CONDITION 1 v_errno = MYSQL_ERRNO, v_failed = MESSAGE_TEXT;
                        IF v_errno IN (1227, 1142, 1143, 1370) THEN
                            SET v_failed = NULL;
                        ELSE
                            SET v_sessions_failed = 1;
                        END IF;
                        CALL operation_fails();
                    END;
                    CALL end_stuck_sessions();
                END;
            END IF;
            CALL release_expired_leases(100);
            CALL report_missed_deadlines(100);
            CALL report_deadlines_at_risk(2);
            SELECT EXISTS (SELECT 1 FROM article WHERE expires_at < v_now AND locked_by IS NOT NULL)
                OR EXISTS (SELECT 1 FROM article WHERE due_watch_at <= v_now) INTO v_lapsed_left;
            IF v_lapsed_left THEN
                UPDATE sweep_turn SET due_at = v_now WHERE id = 1;
            END IF;
        END;
    END IF;
    IF v_taken = 1 AND (v_turn_failed = 1 OR v_sessions_failed = 1) THEN
        BEGIN
            -- the turn stays due for the next caller (if even this fails, the failure is told all the same)
            DECLARE CONTINUE HANDLER FOR SQLEXCEPTION BEGIN END;
            UPDATE sweep_turn
               SET due_at = LEAST(due_at, v_now),
                   sessions_due_at = IF(v_sessions_failed = 1, LEAST(sessions_due_at, v_now), sessions_due_at)
             WHERE id = 1;
        END;
    END IF;
    IF v_turn_failed = 1 OR v_sessions_failed = 1 THEN
        SELECT COALESCE(v_failed, 'the sweep failed') AS sweep_failed;
    END IF;
    BEGIN
        -- an owner without the right to list them (XA_RECOVER_ADMIN on MySQL): the sweep goes on
        DECLARE CONTINUE HANDLER FOR SQLEXCEPTION BEGIN END;
        XA RECOVER;
    END;
END$$

DELIMITER ;
