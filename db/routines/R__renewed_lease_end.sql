DROP FUNCTION IF EXISTS renewed_lease_end;

DELIMITER $$

-- When a lease renewed now ends: its length from now (lease_expiry: the stage's or the desk's,
-- capped by p_max_seconds), never past the desk's maximum hold from the claim, never earlier than it
-- ends already. One place for the heartbeat (renew_leases) and the reload (claim_articles), which
-- wrote the rule each in their own words before. Internal: granted to nobody.
CREATE FUNCTION renewed_lease_end(p_desk VARCHAR(32), p_stage VARCHAR(32), p_max_seconds INT, p_expires DATETIME(6),
                                  p_claimed_at DATETIME(6), p_now DATETIME(6)) RETURNS DATETIME(6)
    NOT DETERMINISTIC READS SQL DATA SQL SECURITY DEFINER
    RETURN GREATEST(p_expires, LEAST(lease_expiry(p_desk, p_stage, p_max_seconds, p_now),
                                     TIMESTAMPADD(SECOND, (SELECT d.max_lease_seconds FROM desk d WHERE d.id = p_desk),
                                                  COALESCE(p_claimed_at, p_now))))$$

DELIMITER ;
