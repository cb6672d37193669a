DROP FUNCTION IF EXISTS lease_expiry;

DELIMITER $$

-- When a lease taken now on an article of p_desk ends: the desk's lease length, capped by
-- p_max_seconds. One place for the claim's UPDATEs. Internal: granted to nobody.
CREATE FUNCTION lease_expiry(p_desk VARCHAR(32), p_max_seconds INT, p_now DATETIME(6)) RETURNS DATETIME(6)
    NOT DETERMINISTIC READS SQL DATA SQL SECURITY DEFINER
    RETURN TIMESTAMPADD(SECOND, (SELECT LEAST(lease_seconds, COALESCE(p_max_seconds, lease_seconds)) FROM desk WHERE id = p_desk),
                        p_now)$$

DELIMITER ;
