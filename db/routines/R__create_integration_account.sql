DROP PROCEDURE IF EXISTS create_integration_account;

DELIMITER $$

-- An admin creates (or renews) the account of another system: feed_reader (reads the view
-- outcome_feed, nothing else) or relay (the relay's operations, nothing else). The name may not be
-- a person's, the server's own, or an account that exists already outside Copydesk. The password must
-- pass password_refusal with at least 12 characters; on MySQL the account is locked after 10 wrong
-- passwords (sign_in_limit), and renewing it (a new password) lifts that, and MariaDB's block.
CREATE PROCEDURE create_integration_account(IN p_name VARCHAR(64), IN p_kind VARCHAR(16), IN p_password VARCHAR(200))
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_a_person INT;
    DECLARE v_not_ours INT;
    DECLARE v_actor VARCHAR(64);
    DECLARE v_refusal VARCHAR(128);
    CALL operation_begins();
    CALL resolve_actor(NULL, 'admin', v_actor);
    CALL check_role_grant();
    IF p_kind IS NULL OR p_kind NOT IN ('feed_reader', 'relay') THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: an integration account is a feed_reader or a relay';
    END IF;
    IF is_account_name(p_name) = 0 THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: an account name is 1 to 32 letters, digits, dots, dashes or underscores';
    END IF;
    SELECT EXISTS (SELECT 1 FROM editor WHERE id = p_name) INTO v_a_person;
    IF v_a_person THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: that name is a person of the newsroom; integration accounts are for other systems';
    END IF;
    IF p_name = SUBSTRING_INDEX(CURRENT_USER(), '@', 1)
            OR p_name IN ('root', 'mysql', 'mariadb.sys', 'mysql.sys', 'mysql.session', 'mysql.infoschema', 'PUBLIC')
            OR EXISTS (SELECT 1 FROM mysql.user WHERE user = p_name
                       AND (host <> '%' OR Super_priv = 'Y' OR Create_user_priv = 'Y' OR Grant_priv = 'Y'
                            OR Process_priv = 'Y' OR File_priv = 'Y' OR Shutdown_priv = 'Y' OR Reload_priv = 'Y')) THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: that is one of the server''s own accounts; it is not managed here';
    END IF;
    SELECT EXISTS (SELECT 1 FROM mysql.user WHERE user = p_name)
            AND NOT EXISTS (SELECT 1 FROM integration_account WHERE name = p_name) INTO v_not_ours;
    IF v_not_ours THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: an account of that name exists already and is not a Copydesk integration account';
    END IF;
    IF p_password IS NULL OR CHAR_LENGTH(p_password) < 12 THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: an integration account''s password has at least 12 characters';
    END IF;
    SET v_refusal = password_refusal(p_name, NULL, p_password, 12);
    IF v_refusal IS NOT NULL THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = v_refusal;
    END IF;
    INSERT INTO integration_account (name, kind, created_by, created_at) VALUES (p_name, p_kind, v_actor, server_utc_now())
    ON DUPLICATE KEY UPDATE kind = VALUES(kind);
    CALL run_account_statement(CONCAT('CREATE USER IF NOT EXISTS ', QUOTE(p_name), '@''%'' IDENTIFIED BY ', QUOTE(p_password)));
    CALL run_account_statement(CONCAT('ALTER USER ', QUOTE(p_name), '@''%'' IDENTIFIED BY ', QUOTE(p_password), sign_in_limit()));
    CALL apply_role(p_name, p_kind, 'create_integration_account');
END$$

DELIMITER ;
