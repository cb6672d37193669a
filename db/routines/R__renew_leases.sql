DROP PROCEDURE IF EXISTS renew_leases;

DELIMITER $$

-- The heartbeat: renews the given leases (a JSON array of [id, token] pairs) to their desk's
-- length, never shortening one and never past the desk's maximum hold. A lease whose token is
-- unchanged is still the editor's even if it lapsed (nobody took it since).
-- Every lease given is renewed at once, by primary key (renewed_lease_end), and the history written
-- by one INSERT: lease by lease, with a read of the desk, the editor's count of leases and a nested
-- call for each, a heartbeat of five leases ran 113 statements and cost the server 4.4 ms, 0.07 ms a
-- second for every editor at the window holding work (ListReadCost -Dbench.spaced, docs/benchmarks.md).
-- Result: id, renewed (1) or lost (0), lease_token, expires_at, server_now.
CREATE PROCEDURE renew_leases(IN p_as VARCHAR(64), IN p_leases TEXT)
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_actor VARCHAR(64);
    DECLARE v_now DATETIME(6);
    DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN CALL operation_fails(); RESIGNAL; END;

    CALL operation_begins();
    CALL resolve_actor(p_as, 'editor', v_actor);
    IF p_leases IS NULL OR JSON_VALID(p_leases) = 0 THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: the leases to renew are not a list of [article, token] pairs';
    END IF;
    START TRANSACTION;
    SET v_now = server_utc_now();
    -- the editor's row first, as a claim takes it: a renewal and a claim of the same editor (the
    -- heartbeat beside an F5) wait for each other instead of deadlocking, and the count of their
    -- leases below cannot change meanwhile
    UPDATE editor SET last_seen_at = v_now WHERE id = v_actor;
    -- the valid leases given that are still theirs under the token given (by primary key: a lock on a
    -- range of ix_article_locked_by would take the next editor's first entry too; see claim_articles)
    UPDATE article a FORCE INDEX (PRIMARY)
      JOIN JSON_TABLE(p_leases, '$[*]' COLUMNS (id BIGINT PATH '$[0]', token BIGINT PATH '$[1]')) j ON a.id = j.id
       SET a.expires_at = renewed_lease_end(a.desk_id, a.stage_id, NULL, a.expires_at, a.claimed_at, v_now),
           a.renewals = a.renewals + 1
     WHERE a.locked_by = v_actor AND a.lease_token = j.token AND a.expires_at > v_now;
    -- A lease that lapsed (nobody took it since) is renewed only within the editor's capacity, in
    -- the order given: otherwise letting leases lapse, claiming more and renewing the old ones would
    -- hold twice as many. Looked for only when some lease given was not renewed above (lost, or
    -- lapsed: rare, the heartbeat comes every minute), one by one.
    IF ROW_COUNT() < JSON_LENGTH(p_leases) THEN BEGIN
        DECLARE v_room INT; -- the capacity less the valid leases the editor holds
        DECLARE v_i INT DEFAULT 0;
        DECLARE v_id BIGINT;
        DECLARE v_token BIGINT;
        SELECT e.capacity - (SELECT COUNT(*) FROM article h WHERE h.locked_by = v_actor AND h.expires_at > v_now)
          INTO v_room FROM editor e WHERE e.id = v_actor;
        WHILE v_room > 0 AND v_i < JSON_LENGTH(p_leases) DO
            SET v_i = v_i + 1;
            SELECT j.id, j.token INTO v_id, v_token
              FROM JSON_TABLE(p_leases, '$[*]' COLUMNS (n FOR ORDINALITY, id BIGINT PATH '$[0]', token BIGINT PATH '$[1]')) j
             WHERE j.n = v_i;
            UPDATE article a
               SET a.expires_at = renewed_lease_end(a.desk_id, a.stage_id, NULL, a.expires_at, a.claimed_at, v_now),
                   a.renewals = a.renewals + 1
             WHERE a.id = v_id AND a.locked_by = v_actor AND a.lease_token = v_token AND a.expires_at <= v_now;
            SET v_room = v_room - ROW_COUNT();
        END WHILE;
    END;
    END IF;
    -- history: a renewal per lease renewed (each now runs past now)
    INSERT INTO lease_event (occurred_at, resource, row_key, action, actor, old_owner, new_owner, old_token,
                             lease_token, expires_at, detail, acted_by)
    SELECT v_now, 'article', CAST(a.id AS CHAR), 'renew', v_actor, v_actor, v_actor, j.token, j.token, a.expires_at, NULL,
           acted_by(v_actor)
      FROM JSON_TABLE(p_leases, '$[*]' COLUMNS (n FOR ORDINALITY, id BIGINT PATH '$[0]', token BIGINT PATH '$[1]')) j
      JOIN article a FORCE INDEX (PRIMARY) ON a.id = j.id
     WHERE a.locked_by = v_actor AND a.lease_token = j.token AND a.expires_at > v_now
     ORDER BY j.n;
    COMMIT;
    SELECT j.id, (a.locked_by <=> v_actor AND a.lease_token <=> j.token AND a.expires_at > v_now) AS renewed,
           a.lease_token, a.expires_at, v_now AS server_now
      FROM JSON_TABLE(p_leases, '$[*]' COLUMNS (id BIGINT PATH '$[0]', token BIGINT PATH '$[1]')) j
      LEFT JOIN article a ON a.id = j.id ORDER BY j.id;
END$$

DELIMITER ;
