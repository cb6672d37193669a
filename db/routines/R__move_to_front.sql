DROP PROCEDURE IF EXISTS move_to_front;

DELIMITER $$

-- A supervisor puts a waiting article at the front of the claim order: the next claim on its desk
-- takes it (unless it is kept from that editor). Claims take articles by priority, lane, the time
-- they became available and number; the article gets the most urgent priority waiting on its desk
-- (its own if that is as urgent), the earliest due time of that priority anywhere in the claim
-- order (due_order: its own due time, due_at, is not changed), the lane of work that came back, and
-- a time just before the earliest of that priority, due time and lane anywhere, so it is first on
-- every editor's list that has its desk. Refused for an article held by an editor now, held by a supervisor, embargoed, or not
-- waiting at all. History: 'to_front', with the reason and the priority it had.
CREATE PROCEDURE move_to_front(IN p_as VARCHAR(64), IN p_article BIGINT, IN p_reason VARCHAR(2000))
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_actor VARCHAR(64);
    DECLARE v_now DATETIME(6);
    DECLARE v_found BIGINT DEFAULT NULL;
    DECLARE v_status VARCHAR(16);
    DECLARE v_desk VARCHAR(32);
    DECLARE v_owner VARCHAR(64);
    DECLARE v_expires DATETIME(6);
    DECLARE v_held DATETIME(6);
    DECLARE v_available DATETIME(6);
    DECLARE v_priority INT;
    DECLARE v_front_priority INT;
    DECLARE v_front DATETIME(6);
    DECLARE v_due_order DATETIME(3);
    DECLARE v_front_due DATETIME(3);
    DECLARE CONTINUE HANDLER FOR NOT FOUND BEGIN END;
    DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN CALL operation_fails(); RESIGNAL; END;
    CALL operation_begins();
    CALL resolve_actor(p_as, 'supervisor', v_actor);
    START TRANSACTION;
    SET v_now = server_utc_now();
    SELECT id, status, desk_id, locked_by, expires_at, held_at, available_at, priority, due_order
      INTO v_found, v_status, v_desk, v_owner, v_expires, v_held, v_available, v_priority, v_due_order
      FROM article WHERE id = p_article FOR UPDATE;
    IF v_found IS NULL OR v_status <> 'queued' THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: this article is not waiting for review';
    END IF;
    IF v_owner IS NOT NULL AND v_expires > v_now THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: an editor is reviewing this article now';
    END IF;
    IF v_held IS NOT NULL THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: this article is on hold; release the hold first';
    END IF;
    IF v_available > v_now THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: this article is under embargo and cannot be claimed before its time';
    END IF;
    -- plain reads of the claim index's head: MIN over its leading columns reads one entry
    SELECT MIN(priority) INTO v_front_priority FROM article
     WHERE status = 'queued' AND desk_id = v_desk AND available_at <= v_now AND held_at IS NULL;
    SET v_front_priority = LEAST(v_priority, COALESCE(v_front_priority, v_priority));
    SELECT MIN(due_order) INTO v_front_due FROM article WHERE status = 'queued' AND priority = v_front_priority;
    SET v_front_due = LEAST(v_due_order, COALESCE(v_front_due, v_due_order));
    SELECT MIN(available_at) INTO v_front FROM article
     WHERE status = 'queued' AND priority = v_front_priority AND due_order = v_front_due AND queue_lane = 0;
    SET v_front = LEAST(v_available, COALESCE(TIMESTAMPADD(MICROSECOND, -1, v_front), v_available));
    UPDATE article SET priority = v_front_priority, due_order = v_front_due, queue_lane = 0, available_at = v_front,
                       updated_at = v_now
     WHERE id = p_article;
    CALL log_event(p_article, 'to_front', v_actor, NULL, NULL, NULL, NULL, NULL,
                   CONCAT_WS(' ', NULLIF(TRIM(p_reason), ''), IF(v_front_priority < v_priority,
                             CONCAT('(priority ', v_priority, ' → ', v_front_priority, ')'), NULL)), v_now);
    COMMIT;
    SELECT p_article AS article_id, v_front_priority AS priority, v_front AS available_at, v_now AS server_now;
END$$

DELIMITER ;
