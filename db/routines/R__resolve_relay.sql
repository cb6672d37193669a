DROP PROCEDURE IF EXISTS resolve_relay;

DELIMITER $$

-- Who may deliver: an integration account of kind relay, an admin, or the account that owns the
-- schema. The relay account gets nothing but the relay_* operations (no table reads, no table writes).
-- Not granted to anyone.
CREATE PROCEDURE resolve_relay(OUT o_actor VARCHAR(64))
    SQL SECURITY DEFINER READS SQL DATA
BEGIN
    DECLARE v_may_relay INT;
    DECLARE v_who VARCHAR(64) DEFAULT SUBSTRING_INDEX(USER(), '@', 1);
    SELECT v_who = SUBSTRING_INDEX(CURRENT_USER(), '@', 1)
            OR EXISTS (SELECT 1 FROM integration_account WHERE name = v_who AND kind = 'relay')
            OR EXISTS (SELECT 1 FROM editor WHERE id = v_who AND role = 'admin') INTO v_may_relay;
    IF v_may_relay THEN
        SET o_actor = v_who;
    ELSE
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: only a relay account or an admin may deliver the outcome feed';
    END IF;
END$$

DELIMITER ;
