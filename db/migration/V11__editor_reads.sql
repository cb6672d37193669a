-- Issue 12, "Reads go through views that show each role what it may see": an editor reads what
-- the editor's window shows, no more.
--
-- Until now every person could read the outbox (outcome_event: each outcome with its delivery
-- state and the receiver's last answer), the relay's delivery lease (relay_lease: the holder and its
-- fencing token) and the feed view. None of it is an editor's business: the editor's window never
-- reads them, and the receiver's answers can name internal systems. Supervisors keep them (the
-- dashboard's Relay tab); integration accounts keep their one thing (V5).
--
-- What each role reads, after this migration:
--   editor      article, article_revision, desk, editor, editor_desk, lease_event, decision,
--               flyway_schema_history (the app checks the schema version), own_review_draft (the view
--               of their own drafts) and review_draft's (article_id, editor_id) (who has a draft where)
--   supervisor  an editor's, plus review_draft whole, import_quarantine, outcome_event, outcome_feed,
--               relay_lease
--   admin       everything in the schema
-- apply_role is re-created (as V9's, with that split) and every account given its role's grants again.

-- [jooq ignore start]
DROP PROCEDURE IF EXISTS apply_role;

DELIMITER $$

-- apply_role as in V9; V11: the outbox, the feed and the relay lease are for supervisors only.
CREATE PROCEDURE apply_role(IN p_name VARCHAR(32), IN p_role VARCHAR(16))
    SQL SECURITY DEFINER MODIFIES SQL DATA
each_role: BEGIN -- V5: a label, so other systems' kinds can leave early
    DECLARE v_account VARCHAR(100) DEFAULT CONCAT(QUOTE(p_name), '@''%''');
    DECLARE v_db VARCHAR(100) DEFAULT CONCAT('`', DATABASE(), '`.');
    DECLARE v_rest VARCHAR(2000);
    DECLARE v_item VARCHAR(100);
    CALL run_account_statement(CONCAT('REVOKE ALL PRIVILEGES, GRANT OPTION FROM ', v_account));
    -- V5: other systems' accounts get their one thing and nothing of the newsroom's
    IF p_role = 'feed_reader' THEN
        CALL run_account_statement(CONCAT('GRANT SELECT ON ', v_db, '`outcome_feed` TO ', v_account));
        LEAVE each_role;
    END IF;
    IF p_role = 'relay' THEN
        SET v_rest = 'relay_acquire,relay_release,relay_next,relay_record_attempt';
        WHILE v_rest <> '' DO
            SET v_item = SUBSTRING_INDEX(v_rest, ',', 1);
            SET v_rest = IF(LOCATE(',', v_rest) > 0, SUBSTRING(v_rest, LOCATE(',', v_rest) + 1), '');
            CALL run_account_statement(CONCAT('GRANT EXECUTE ON PROCEDURE ', v_db, '`', v_item, '` TO ', v_account));
        END WHILE;
        LEAVE each_role;
    END IF;
    SET v_rest = 'article,desk,editor,editor_desk,lease_event,decision,flyway_schema_history,own_review_draft,article_revision'; -- V11: what an editor's window reads
    WHILE v_rest <> '' DO
        SET v_item = SUBSTRING_INDEX(v_rest, ',', 1);
        SET v_rest = IF(LOCATE(',', v_rest) > 0, SUBSTRING(v_rest, LOCATE(',', v_rest) + 1), '');
        CALL run_account_statement(CONCAT('GRANT SELECT ON ', v_db, '`', v_item, '` TO ', v_account));
    END WHILE;
    -- who has a draft where; the notes only through own_review_draft
    CALL run_account_statement(CONCAT('GRANT SELECT (article_id, editor_id) ON ', v_db, '`review_draft` TO ', v_account));
    SET v_rest = 'claim_articles,renew_leases,release_article,decide_article,save_draft,record_presence,release_expired_leases,end_stuck_transactions,take_revision'; -- V9: take_revision
    IF p_role IN ('supervisor', 'admin') THEN
        SET v_rest = CONCAT(v_rest, ',force_release_article,reassign_article,extend_lease,set_editor_capacity,set_editor_desks',
                            ',import_articles,requeue_article,correct_import_row,discard_import_row,relay_retry'); -- V5: relay_retry
    END IF;
    -- admins call the account operations through ALL on the schema (below): granting EXECUTE on a
    -- routine while it runs makes MariaDB reload it mid-call and fail ("Recursive limit 0")
    WHILE v_rest <> '' DO
        SET v_item = SUBSTRING_INDEX(v_rest, ',', 1);
        SET v_rest = IF(LOCATE(',', v_rest) > 0, SUBSTRING(v_rest, LOCATE(',', v_rest) + 1), '');
        CALL run_account_statement(CONCAT('GRANT EXECUTE ON PROCEDURE ', v_db, '`', v_item, '` TO ', v_account));
    END WHILE;
    IF p_role = 'supervisor' THEN
        CALL run_account_statement(CONCAT('GRANT SELECT ON ', v_db, '`review_draft` TO ', v_account));
        CALL run_account_statement(CONCAT('GRANT SELECT ON ', v_db, '`import_quarantine` TO ', v_account));
        -- V11: the outbox, the feed and the relay's lease, for the dashboard's Relay tab
        CALL run_account_statement(CONCAT('GRANT SELECT ON ', v_db, '`outcome_event` TO ', v_account));
        CALL run_account_statement(CONCAT('GRANT SELECT ON ', v_db, '`outcome_feed` TO ', v_account));
        CALL run_account_statement(CONCAT('GRANT SELECT ON ', v_db, '`relay_lease` TO ', v_account));
    END IF;
    IF p_role = 'admin' THEN
        -- the schema (migrations, purge), but no account rights beyond the operations above
        CALL run_account_statement(CONCAT('GRANT ALL PRIVILEGES ON ', v_db, '* TO ', v_account));
    END IF;
END$$

DELIMITER ;

CALL regrant_accounts();

-- [jooq ignore stop]
