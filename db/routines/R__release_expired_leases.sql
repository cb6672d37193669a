DROP PROCEDURE IF EXISTS release_expired_leases;

DELIMITER $$

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
    DECLARE lapsed CURSOR FOR SELECT id, locked_by, lease_token, expires_at FROM article
         WHERE expires_at < v_now AND locked_by IS NOT NULL
         ORDER BY expires_at LIMIT v_batch FOR UPDATE SKIP LOCKED;
    DECLARE CONTINUE HANDLER FOR NOT FOUND SET v_done = 1;
    DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN CALL operation_fails(); RESIGNAL; END;
    CALL operation_begins();
    CALL resolve_actor(NULL, 'editor', v_actor);
    SET v_batch = GREATEST(1, LEAST(COALESCE(p_batch, 100), 1000));
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

DELIMITER ;
