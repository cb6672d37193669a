DROP PROCEDURE IF EXISTS create_directory_account;

DELIMITER $$

-- An admin creates (or turns into one) a person's account that signs in with the newsroom's
-- directory password: the server identifies it through PAM (MariaDB's auth_pam plugin, PAM service
-- `copydesk`; docs/install.md, "Directory sign-in"), with the rights and limits of the person's role,
-- as create_account does. No password is kept anywhere in Copydesk or the database. A server
-- without the plugin active (MySQL Community, the embedded server) refuses in one line and changes
-- nothing. The PAM plugin asks the client for the password in clear (pam_use_cleartext_plugin), so
-- the client sends it only over TLS (Connector/J refuses otherwise).
CREATE PROCEDURE create_directory_account(IN p_name VARCHAR(64))
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_actor VARCHAR(64);
    DECLARE v_role VARCHAR(16);
    DECLARE v_pam INT;
    DECLARE v_exists INT;
    CALL operation_begins();
    CALL resolve_actor(NULL, 'admin', v_actor);
    CALL check_role_grant();
    CALL require_person(p_name, v_role);
    SELECT COUNT(*) INTO v_pam FROM information_schema.plugins
     WHERE plugin_name = 'pam' AND plugin_status = 'ACTIVE' AND plugin_type = 'AUTHENTICATION';
    IF v_pam = 0 THEN
        -- (at most 128 characters: MySQL refuses a longer MESSAGE_TEXT)
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT =
            'Copydesk: this database server cannot sign people in with the directory (MariaDB with auth_pam: docs/install.md)';
    END IF;
    -- the name passed is_account_name (require_person): letters, digits, dots, dashes, underscores.
    -- One account statement, not two: each rewrites the grant tables and reloads the server's
    -- account cache, and a newsroom's people sync makes hundreds (docs/benchmarks.md).
    SELECT EXISTS (SELECT 1 FROM mysql.user WHERE user = p_name AND host = '%') INTO v_exists;
    IF v_exists THEN
        -- an account that signed in with a password until now: the directory's from now on
        CALL run_account_statement(CONCAT('ALTER USER ', QUOTE(p_name), '@''%'' IDENTIFIED VIA pam USING ''copydesk'''));
    ELSE
        -- made by another admin meanwhile: refused (1396), never left signing in with a password
        CALL run_account_statement(CONCAT('CREATE USER ', QUOTE(p_name), '@''%'' IDENTIFIED VIA pam USING ''copydesk'''));
    END IF;
    INSERT INTO person_account (name, created_at) VALUES (p_name, server_utc_now()) ON DUPLICATE KEY UPDATE created_at = created_at;
    CALL apply_role(p_name, v_role, 'create_directory_account');
END$$

DELIMITER ;
