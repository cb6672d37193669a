DROP FUNCTION IF EXISTS lease_expiry;

DELIMITER $$

-- When a lease taken now on an article of p_desk at p_stage ends: the stage's lease length if it
-- has one, else the desk's, capped by p_max_seconds. p_stage NULL (a desk without stages) reads the
-- desk only: the stage's look-up by a NULL key finds nothing without reading a row. One place for the
-- claim's UPDATEs. Internal: granted to nobody.
CREATE FUNCTION lease_expiry(p_desk VARCHAR(32), p_stage VARCHAR(32), p_max_seconds INT, p_now DATETIME(6)) RETURNS DATETIME(6)
    NOT DETERMINISTIC READS SQL DATA SQL SECURITY DEFINER
    -- (p_max_seconds NULL: no cap. Capped by the desk's own length instead, as this read until
    -- 2026-11-30, a stage longer than its desk's lease got the desk's on a claim and its own on a renewal.)
    RETURN TIMESTAMPADD(SECOND, (SELECT LEAST(COALESCE((SELECT s.lease_seconds FROM desk_stage s
                                                         WHERE s.desk_id = p_desk AND s.stage_id = p_stage), lease_seconds),
                                              COALESCE(p_max_seconds, 2147483647)) FROM desk WHERE id = p_desk),
                        p_now)$$

DELIMITER ;
