DROP PROCEDURE IF EXISTS renew_leases;

DELIMITER $$

-- The heartbeat: renews the given leases (a JSON array of [id, token] pairs) to their desk's
-- length, never shortening one and never past the desk's maximum hold. A lease whose token is
-- unchanged is still the editor's even if it lapsed (nobody took it since).
-- Result: id, renewed (1) or lost (0), lease_token, expires_at, server_now.
CREATE PROCEDURE renew_leases(IN p_as VARCHAR(64), IN p_leases TEXT)
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_full INT;
    DECLARE v_actor VARCHAR(64);
    DECLARE v_now DATETIME(6);
    DECLARE v_id BIGINT;
    DECLARE v_token BIGINT;
    DECLARE v_desk VARCHAR(32);
    DECLARE v_claimed_at DATETIME(6);
    DECLARE v_expires DATETIME(6);
    DECLARE v_lease INT;
    DECLARE v_stage VARCHAR(32);
    DECLARE v_max INT;
    DECLARE v_done INT DEFAULT 0;
    DECLARE v_out TEXT DEFAULT '[]';
    DECLARE wanted CURSOR FOR SELECT j.id, j.token FROM JSON_TABLE(p_leases, '$[*]' COLUMNS (id BIGINT PATH '$[0]', token BIGINT PATH '$[1]')) j;
    DECLARE CONTINUE HANDLER FOR NOT FOUND SET v_done = 1;
    DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN CALL operation_fails(); RESIGNAL; END;

    CALL operation_begins();
    CALL resolve_actor(p_as, 'editor', v_actor);
    IF p_leases IS NULL OR JSON_VALID(p_leases) = 0 THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: the leases to renew are not a list of [article, token] pairs';
    END IF;
    START TRANSACTION;
    SET v_now = server_utc_now();
    OPEN wanted;
    each_lease: LOOP
        FETCH wanted INTO v_id, v_token;
        IF v_done = 1 THEN LEAVE each_lease; END IF;
        SET v_desk = NULL;
        SELECT desk_id, stage_id, claimed_at, expires_at INTO v_desk, v_stage, v_claimed_at, v_expires FROM article
         WHERE id = v_id AND locked_by = v_actor AND lease_token = v_token FOR UPDATE;
        SET v_done = 0;
        -- a lease that lapsed (nobody took it since) is renewed only within the editor's capacity:
        -- otherwise letting leases lapse, claiming more and renewing the old ones would hold twice as many
        SELECT v_desk IS NOT NULL AND v_expires <= v_now
                AND (SELECT COUNT(*) FROM article WHERE locked_by = v_actor AND expires_at > v_now)
                    >= (SELECT capacity FROM editor WHERE id = v_actor) INTO v_full;
        IF v_full THEN
            SET v_desk = NULL;
        END IF;
        IF v_desk IS NULL THEN
            SET v_out = JSON_ARRAY_APPEND(v_out, '$', JSON_ARRAY(v_id, 0));
        ELSE
            -- the stage's lease length, if it has one (a desk without stages: the look-up by NULL reads nothing)
            SELECT COALESCE((SELECT s.lease_seconds FROM desk_stage s WHERE s.desk_id = v_desk AND s.stage_id = v_stage),
                            lease_seconds), max_lease_seconds
              INTO v_lease, v_max FROM desk WHERE id = v_desk;
            SET v_expires = GREATEST(v_expires, LEAST(TIMESTAMPADD(SECOND, v_lease, v_now),
                                                      TIMESTAMPADD(SECOND, v_max, COALESCE(v_claimed_at, v_now))));
            UPDATE article SET expires_at = v_expires, renewals = renewals + 1 WHERE id = v_id;
            CALL log_event(v_id, 'renew', v_actor, v_actor, v_actor, v_token, v_token, v_expires, NULL, v_now);
            SET v_out = JSON_ARRAY_APPEND(v_out, '$', JSON_ARRAY(v_id, 1));
        END IF;
    END LOOP;
    CLOSE wanted;
    UPDATE editor SET last_seen_at = v_now WHERE id = v_actor;
    COMMIT;
    SELECT o.id, o.renewed, a.lease_token, a.expires_at, v_now AS server_now
      FROM JSON_TABLE(v_out, '$[*]' COLUMNS (id BIGINT PATH '$[0]', renewed INT PATH '$[1]')) o
      LEFT JOIN article a ON a.id = o.id ORDER BY o.id;
END$$

DELIMITER ;
