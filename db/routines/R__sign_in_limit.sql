DROP FUNCTION IF EXISTS sign_in_limit;

DELIMITER $$

-- What the account statements of create_account, set_account_password and create_integration_account
-- add so that password guessing stops: on MySQL 8.0.19 and later, the account is locked after 10
-- wrong passwords in a row, for a day or until an admin gives it a new password (setting these again
-- resets the count and lifts the lock; ALTER USER … ACCOUNT UNLOCK too). MariaDB has no such clause:
-- its limit is the server's max_password_errors (copydesk server sets it; docs/security.md tells a
-- DBA to), and any ALTER USER of the account lifts it there. Empty text on MariaDB and older MySQL.
CREATE FUNCTION sign_in_limit() RETURNS VARCHAR(64)
    DETERMINISTIC NO SQL SQL SECURITY DEFINER
BEGIN
    DECLARE v_version VARCHAR(64) DEFAULT VERSION();
    DECLARE v_major INT DEFAULT CAST(SUBSTRING_INDEX(v_version, '.', 1) AS UNSIGNED);
    DECLARE v_minor INT DEFAULT CAST(SUBSTRING_INDEX(SUBSTRING_INDEX(v_version, '.', 2), '.', -1) AS UNSIGNED);
    DECLARE v_patch INT DEFAULT CAST(SUBSTRING_INDEX(SUBSTRING_INDEX(SUBSTRING_INDEX(v_version, '-', 1), '.', 3), '.', -1) AS UNSIGNED);
    IF v_version LIKE '%MariaDB%' OR v_major < 8 OR (v_major = 8 AND v_minor = 0 AND v_patch < 19) THEN
        RETURN '';
    END IF;
    RETURN ' FAILED_LOGIN_ATTEMPTS 10 PASSWORD_LOCK_TIME 1';
END$$

DELIMITER ;
