DROP FUNCTION IF EXISTS acted_by;

DELIMITER $$

-- Who was signed in, for a history row or a decision that names p_actor: NULL when that is p_actor
-- (the person did it), else the signed-in account (an admin, or the owner, acting for an editor
-- through p_as), so no row says an editor did what someone else did in their name. USER() is the
-- connected account, which the client cannot set. Every INSERT of lease_event and decision writes
-- it (a trigger would do it in one place, but MariaDB 11.4.5 then loses the claim's INSERT ...
-- SELECT values: "Column 'resource' cannot be null"). Internal: granted to nobody.
CREATE FUNCTION acted_by(p_actor VARCHAR(64)) RETURNS VARCHAR(64)
    NOT DETERMINISTIC NO SQL SQL SECURITY DEFINER
    RETURN IF(p_actor <=> SUBSTRING_INDEX(USER(), '@', 1), NULL, SUBSTRING_INDEX(USER(), '@', 1))$$

DELIMITER ;
