DROP FUNCTION IF EXISTS password_refusal;

DELIMITER $$

-- Why a new password is refused, or NULL when it is not: shorter than p_min_length; one character
-- repeated; the account's name, the person's name (p_display_name, NULL for other systems) or one
-- word of it, with at most digits and signs added; or one of the commonest passwords, which is any with no letters at
-- all (12345678) or whose letters are one of the words below (Password1!, qwerty123). The check of
-- create_account, set_account_password and create_integration_account, so a raw CALL cannot skip it;
-- AccountAdministration.checkNewPassword says the same before anything is created. Each reason is
-- one line that says what is wanted (at most 128 characters: SIGNAL's limit).
CREATE FUNCTION password_refusal(p_name VARCHAR(64), p_display_name VARCHAR(100), p_password VARCHAR(200),
                                 p_min_length INT) RETURNS VARCHAR(128)
    DETERMINISTIC NO SQL SQL SECURITY DEFINER
BEGIN
    DECLARE v_letters VARCHAR(200);
    DECLARE v_words INT;
    DECLARE v_i INT DEFAULT 1;
    DECLARE v_name_refused INT DEFAULT 0;
    IF p_password IS NULL OR CHAR_LENGTH(p_password) < p_min_length THEN
        RETURN CONCAT('Copydesk: a password has at least ', p_min_length, ' characters');
    END IF;
    -- compared as bytes: 'aAaAaAaA' is not one character repeated
    IF CHAR_LENGTH(REPLACE(CAST(p_password AS BINARY), CAST(LEFT(p_password, 1) AS BINARY), '')) = 0 THEN
        RETURN 'Copydesk: a password may not be one character repeated; choose another';
    END IF;
    SET v_letters = password_letters(p_password);
    -- the commonest passwords of the published lists, by their letters, and this application's own words
    IF v_letters IN ('', 'password', 'passwort', 'passwd', 'pass', 'pw', 'qwerty', 'qwertz', 'azerty', 'qwertyuiop',
            'qwe', 'qweasd', 'qweasdzxc', 'qazwsx', 'qaz', 'wsx', 'asdf', 'asdfgh', 'asdfghjkl', 'zxcvbn', 'zxcvbnm',
            'abc', 'abcd', 'abcde', 'abcdef', 'abcdefg', 'abcdefgh', 'aaa', 'q', 'qw', 'qwer', 'qwert', 'a', 'ab',
            'letmein', 'welcome', 'admin', 'administrator', 'root', 'toor', 'iloveyou', 'monkey', 'dragon', 'football',
            'baseball', 'soccer', 'sunshine', 'princess', 'master', 'shadow', 'superman', 'batman', 'trustno',
            'secret', 'changeme', 'default', 'login', 'test', 'guest', 'user', 'hello', 'freedom', 'whatever',
            'starwars', 'michael', 'jennifer', 'charlie', 'computer', 'internet', 'access', 'mustang', 'killer',
            'copydesk', 'newsroom', 'editor', 'supervisor', 'mariadb', 'mysql', 'database') THEN
        RETURN 'Copydesk: that is one of the commonest passwords (or one with digits added); choose another';
    END IF;
    -- (after the common ones: a name without letters would otherwise match any password without letters)
    SET v_name_refused = v_letters = password_letters(p_name) OR v_letters = password_letters(p_display_name);
    SET v_words = CHAR_LENGTH(p_display_name) - CHAR_LENGTH(REPLACE(p_display_name, ' ', '')) + 1;
    WHILE v_name_refused = 0 AND v_i <= v_words DO
        SET v_name_refused = v_letters = password_letters(SUBSTRING_INDEX(SUBSTRING_INDEX(p_display_name, ' ', v_i), ' ', -1));
        SET v_i = v_i + 1;
    END WHILE;
    IF v_name_refused THEN
        RETURN 'Copydesk: a password may not be the account''s or the person''s name, with digits added or not; choose another';
    END IF;
    RETURN NULL;
END$$

DELIMITER ;
