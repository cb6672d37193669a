DROP PROCEDURE IF EXISTS abandoned_xa_transactions;

DELIMITER $$

-- The XA half of the sweep (SessionSweep): an XA transaction prepared by a session that then went
-- away outlives its connection (on MySQL with its metadata locks, which a schema change waits for
-- for ever), and only XA ROLLBACK ends it. XA statements cannot end another session's transaction
-- from inside a routine, but anyone may roll back a prepared XA transaction by its id; listing them
-- needs a right (XA_RECOVER_ADMIN on MySQL), the owner's. So this lists them, with the limit of
-- session_limit, and the sweep rolls back the ones it has seen for longer than that.
-- Result 1: xa_seconds (0: leave them alone). Result 2: XA RECOVER's rows.
CREATE PROCEDURE abandoned_xa_transactions()
    SQL SECURITY DEFINER READS SQL DATA
BEGIN
    DECLARE v_actor VARCHAR(64);
    CALL operation_begins();
    CALL resolve_actor(NULL, 'editor', v_actor);
    SELECT xa_seconds FROM session_limit WHERE id = 1;
    XA RECOVER;
END$$

DELIMITER ;
