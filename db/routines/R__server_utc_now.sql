DROP FUNCTION IF EXISTS server_utc_now;

DELIMITER $$

-- The server's real clock in UTC, the time of every lease and every history row. NOW(),
-- UTC_TIMESTAMP() and CURRENT_TIMESTAMP follow the session's @@timestamp, and NOW() also its
-- @@time_zone, and any account may set both; SYSDATE() ignores @@timestamp, and UNIX_TIMESTAMP()
-- of it undoes the session's time zone, so the result cannot be moved by the session.
CREATE FUNCTION server_utc_now() RETURNS DATETIME(6)
    NOT DETERMINISTIC NO SQL SQL SECURITY DEFINER
    RETURN TIMESTAMPADD(MICROSECOND, ROUND(UNIX_TIMESTAMP(SYSDATE(6)) * 1000000), '1970-01-01 00:00:00.000000')$$

DELIMITER ;
