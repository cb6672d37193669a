-- Copydesk security: the rules a client cannot get around, even with raw SQL.
--
-- Every person signs in with their own database account, named like their editor id. Accounts get
-- table and column grants by role (see AccountAdministration.java); these triggers add the rules
-- grants cannot express. Triggers run with the rights of the account that ran this migration, but
-- USER() is always the signed-in account, so `who` below is the person, whatever the client sends.
-- Accounts without an editor row (root, the migration account) are database administrators and
-- pass unchecked: they hold every privilege anyway.
--
-- jOOQ's code generator does not parse triggers; it skips everything between the markers.

-- [jooq ignore start]

CREATE SQL SECURITY DEFINER VIEW own_review_draft AS
    SELECT article_id, editor_id, verdict, notes, saved_at
    FROM review_draft
    WHERE editor_id = SUBSTRING_INDEX(USER(), '@', 1);

DELIMITER $$

-- Editors hold, renew, give back and decide only their own leases, within their desks, their
-- capacity and their desk's lease length; they never touch an article's text or someone else's
-- valid lease. The release service in their client may end expired leases of others, nothing more.
CREATE TRIGGER article_guard BEFORE UPDATE ON article FOR EACH ROW
BEGIN
    DECLARE who VARCHAR(64) DEFAULT SUBSTRING_INDEX(USER(), '@', 1);
    DECLARE who_role VARCHAR(16) DEFAULT NULL;
    DECLARE who_capacity INT DEFAULT 0;
    DECLARE held INT DEFAULT 0;
    DECLARE desk_lease INT DEFAULT 0;
    DECLARE desk_max INT DEFAULT 0;
    -- scalar subqueries rather than SELECT INTO: no row (an administrator) is NULL, not a warning
    SET who_role = (SELECT role FROM editor WHERE id = who);
    SET who_capacity = (SELECT capacity FROM editor WHERE id = who);
    IF who_role = 'editor' THEN
        IF NOT (NEW.title <=> OLD.title AND NEW.body <=> OLD.body AND NEW.byline <=> OLD.byline
                AND NEW.desk_id <=> OLD.desk_id AND NEW.priority <=> OLD.priority
                AND NEW.external_id <=> OLD.external_id) THEN
            SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: editors cannot change an article''s text or desk';
        END IF;
        IF OLD.locked_by IS NOT NULL AND OLD.locked_by <> who AND OLD.expires_at > NOW(6) THEN
            SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: this article is leased to someone else';
        END IF;
        IF NEW.locked_by IS NOT NULL AND NEW.locked_by <> who THEN
            SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: you can take a lease only for yourself';
        END IF;
        IF OLD.locked_by IS NULL AND NEW.locked_by IS NULL THEN
            SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: editors change only articles they hold';
        END IF;
        IF OLD.locked_by IS NOT NULL AND OLD.locked_by <> who AND NEW.locked_by IS NULL
                AND NOT (NEW.status <=> OLD.status AND NEW.attempts <=> OLD.attempts
                         AND NEW.available_at <=> OLD.available_at AND NEW.lease_token <=> OLD.lease_token) THEN
            SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: an expired lease of someone else can only be released';
        END IF;
        IF NEW.locked_by = who AND (OLD.locked_by IS NULL OR OLD.locked_by <> who OR NEW.lease_token <> OLD.lease_token) THEN
            -- a claim: the article must be waiting, available, free or expired, on one of my desks
            IF OLD.status <> 'queued' OR OLD.available_at > NOW(6) THEN
                SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: this article is not waiting for review';
            END IF;
            IF NOT EXISTS (SELECT 1 FROM editor_desk WHERE editor_id = who AND desk_id = OLD.desk_id) THEN
                SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: this article is not on one of your desks';
            END IF;
            IF NEW.lease_token <> OLD.lease_token + 1 THEN
                SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: a claim must take the next lease token';
            END IF;
            SET held = (SELECT COUNT(*) FROM article WHERE locked_by = who AND expires_at > NOW(6) AND id <> OLD.id);
            IF held >= who_capacity THEN
                SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: you already hold as many articles as your capacity';
            END IF;
        END IF;
        IF NEW.locked_by = who THEN
            SET desk_lease = (SELECT lease_seconds FROM desk WHERE id = OLD.desk_id);
            SET desk_max = (SELECT max_lease_seconds FROM desk WHERE id = OLD.desk_id);
            IF NEW.expires_at > TIMESTAMPADD(SECOND, desk_lease + 5, NOW(6))
                    OR NEW.expires_at > TIMESTAMPADD(SECOND, desk_max + 5, COALESCE(NEW.claimed_at, NOW(6))) THEN
                SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: a lease cannot be longer than the desk allows';
            END IF;
        END IF;
    END IF;
END$$

-- History is written by the database's clock and in the name of whoever is signed in.
CREATE TRIGGER lease_event_stamp BEFORE INSERT ON lease_event FOR EACH ROW
BEGIN
    DECLARE who VARCHAR(64) DEFAULT SUBSTRING_INDEX(USER(), '@', 1);
    DECLARE who_role VARCHAR(16) DEFAULT NULL;
    SET who_role = (SELECT role FROM editor WHERE id = who);
    IF who_role IS NOT NULL THEN
        SET NEW.occurred_at = NOW(6);
        IF who_role = 'editor' THEN
            SET NEW.actor = who;
        END IF;
    END IF;
END$$

CREATE TRIGGER decision_owner BEFORE INSERT ON decision FOR EACH ROW
BEGIN
    DECLARE who VARCHAR(64) DEFAULT SUBSTRING_INDEX(USER(), '@', 1);
    IF EXISTS (SELECT 1 FROM editor WHERE id = who AND role = 'editor') AND NEW.editor_id <> who THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: you can record decisions only in your own name';
    END IF;
    IF EXISTS (SELECT 1 FROM editor WHERE id = who) THEN
        SET NEW.decided_at = NOW(6);
    END IF;
END$$

-- Everyone writes only their own drafts (reading goes through own_review_draft).
CREATE TRIGGER review_draft_owner_insert BEFORE INSERT ON review_draft FOR EACH ROW
BEGIN
    DECLARE who VARCHAR(64) DEFAULT SUBSTRING_INDEX(USER(), '@', 1);
    IF EXISTS (SELECT 1 FROM editor WHERE id = who) AND NEW.editor_id <> who THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: you can write only your own drafts';
    END IF;
END$$

CREATE TRIGGER review_draft_owner_update BEFORE UPDATE ON review_draft FOR EACH ROW
BEGIN
    DECLARE who VARCHAR(64) DEFAULT SUBSTRING_INDEX(USER(), '@', 1);
    IF EXISTS (SELECT 1 FROM editor WHERE id = who) AND (OLD.editor_id <> who OR NEW.editor_id <> who) THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: you can write only your own drafts';
    END IF;
END$$

CREATE TRIGGER review_draft_owner_delete BEFORE DELETE ON review_draft FOR EACH ROW
BEGIN
    DECLARE who VARCHAR(64) DEFAULT SUBSTRING_INDEX(USER(), '@', 1);
    IF EXISTS (SELECT 1 FROM editor WHERE id = who) AND OLD.editor_id <> who THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: you can remove only your own drafts';
    END IF;
END$$

-- Editors may record only their own heartbeat; capacity and role are for supervisors and admins.
CREATE TRIGGER editor_guard BEFORE UPDATE ON editor FOR EACH ROW
BEGIN
    DECLARE who VARCHAR(64) DEFAULT SUBSTRING_INDEX(USER(), '@', 1);
    IF EXISTS (SELECT 1 FROM editor WHERE id = who AND role = 'editor')
            AND (OLD.id <> who OR NOT (NEW.role <=> OLD.role AND NEW.capacity <=> OLD.capacity
                                       AND NEW.display_name <=> OLD.display_name)) THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: editors may only record their own presence';
    END IF;
END$$

DELIMITER ;

-- [jooq ignore stop]
