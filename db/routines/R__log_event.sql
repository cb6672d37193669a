DROP PROCEDURE IF EXISTS log_event;

DELIMITER $$

-- Appends one history row of an article (its detail cut to the column's size). Not granted to anyone.
CREATE PROCEDURE log_event(IN p_row BIGINT, IN p_action VARCHAR(32), IN p_actor VARCHAR(64), IN p_old_owner VARCHAR(64),
                           IN p_new_owner VARCHAR(64), IN p_old_token BIGINT, IN p_token BIGINT, IN p_expires DATETIME(6),
                           IN p_detail TEXT, IN p_now DATETIME(6))
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    INSERT INTO lease_event (occurred_at, resource, row_key, action, actor, old_owner, new_owner, old_token,
                             lease_token, expires_at, detail, acted_by)
    VALUES (p_now, 'article', CAST(p_row AS CHAR), p_action, p_actor, p_old_owner, p_new_owner, p_old_token,
            p_token, p_expires, event_detail(p_detail), acted_by(p_actor));
END$$

DELIMITER ;
