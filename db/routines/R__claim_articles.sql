DROP PROCEDURE IF EXISTS claim_articles;

DELIMITER $$

-- Get articles / Reload, in one call: refreshes every valid lease of the editor to the desk's
-- length (never shorter than it is, never past the desk's maximum hold), then tops up to their
-- capacity with articles from their desks (only p_desks among them, if given: a comma-separated
-- list; and only the desks and stages the editor chose, set_work_choice) in claim order, free or
-- with a lapsed lease, passing over what they gave back in the last 10 minutes, what a supervisor
-- keeps from them (kept_from: set by a force release or a reassignment away) and what a supervisor
-- holds (held_at). p_limit caps the batch (NULL: the capacity), p_max_lease_seconds caps the lease (NULL: the desk's).
-- Claim order (docs/workflow.md): priority; then the due time, earliest first, articles without one
-- after every due one (due_order); then work that came back (lane 0); then when it became
-- available; then id. ix_article_claim and ix_article_free have these columns in this order.
-- On a desk with a review chain (docs/workflow.md) an article is handed out only at a stage the
-- editor may take (the desk's editors, or the people a stage names, who need not be on the desk),
-- and never at a four-eyes stage to someone who approved it at another stage (four_eyes_barred,
-- on the row itself: a subquery in this locking read would lock the rows it reads too); the lease
-- is the stage's length if it has one. p_desks may name "desk/stage" entries to take only those. A
-- desk without stages costs one test per row read (stage_id IS NULL) and no statement more.
-- p_strategy: SKIP_LOCKED (default: a locking read that passes over rows other claims are
-- taking), BLOCKING (candidates read without locks, then locked one by one by primary key, waiting
-- for a row another claim is taking), OPTIMISTIC (no locking read; each take is a compare-and-set
-- on the lease token, for multi-writer clusters).
-- Result 1: server_now, refreshed, claimed, capacity, next_available_at (only when the editor holds
-- less than their capacity). Result 2: the leases refreshed (by id), then those taken (in claim
-- order), with what the editor's list shows.
--
-- Every row is taken as it is picked, by one UPDATE by primary key with the compare-and-set's
-- conditions, and the history rows are written once all rows are taken, by one INSERT ... SELECT
-- from what the takes remembered (about the time of five single-row inserts, and 40 statements a
-- claim fewer; docs/benchmarks.md). The refresh of held leases is one UPDATE over them: the new end
-- depends on values read under each row's lock, which the UPDATE computes itself.
CREATE PROCEDURE claim_articles(IN p_as VARCHAR(64), IN p_desks VARCHAR(2000), IN p_limit INT,
                                IN p_max_lease_seconds INT, IN p_strategy VARCHAR(16))
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    DECLARE v_actor VARCHAR(64);
    DECLARE v_now DATETIME(6);
    DECLARE v_capacity INT;
    DECLARE v_desks VARCHAR(4000);
    DECLARE v_want INT DEFAULT 0;
    DECLARE v_refreshed INT DEFAULT 0;
    DECLARE v_claimed INT DEFAULT 0;
    DECLARE v_id BIGINT;
    DECLARE v_owner VARCHAR(64);
    DECLARE v_token BIGINT;
    DECLARE v_scan INT; -- BLOCKING and OPTIMISTIC: how many candidates a read keeps
    DECLARE v_skip INT DEFAULT 0; -- and how many it passes over first
    DECLARE v_spread DOUBLE DEFAULT 0; -- BLOCKING and OPTIMISTIC: where in the window this claim starts (0 to 1)
    -- BLOCKING and OPTIMISTIC: the urgency a read from a random place keeps to (see the rounds)
    DECLARE v_lowest_priority INT DEFAULT -2147483648;
    DECLARE v_highest_priority INT DEFAULT 2147483647;
    DECLARE v_lowest_lane INT DEFAULT -2147483648;
    DECLARE v_highest_lane INT DEFAULT 2147483647;
    DECLARE v_lowest_due DATETIME(3) DEFAULT '1000-01-01 00:00:00.000';
    DECLARE v_highest_due DATETIME(3) DEFAULT '9999-12-31 23:59:59.999';
    DECLARE v_head_priority INT;
    DECLARE v_head_due DATETIME(3);
    DECLARE v_head_lane INT;
    DECLARE v_done INT DEFAULT 0;
    DECLARE v_lapsed INT DEFAULT 0; -- a lapsed lease waits to be taken over on the editor's desks
    DECLARE v_round INT DEFAULT 0; -- BLOCKING and OPTIMISTIC: how many times the candidates were read
    DECLARE v_seen INT DEFAULT 0; -- candidates this read handed out
    DECLARE v_desk VARCHAR(32); -- the desk of the row picked, for its lease length
    DECLARE v_stage VARCHAR(32); -- and its stage (NULL on a desk without stages)
    -- the stages the editor may take on their desks, as "desk/stage,…" (NULL: none; a desk without
    -- stages needs no entry): the desk's editors' stages and those naming them, among p_desks
    DECLARE v_stages TEXT;
    DECLARE v_usable INT; -- 0: none of the editor's chosen entries names work they may still take
    DECLARE v_choice_ignored INT DEFAULT 0; -- and so the choice is ignored
    DECLARE v_lease_stage VARCHAR(32); -- the stage v_lease_end is for
    -- the rows taken, in claim order, with the lease each had and the new lease's end:
    -- [[id, old owner or "", old token, new end], …] (v_claimed counts them once a read is done)
    DECLARE v_picked TEXT DEFAULT '[]';
    -- their ids, "id,id,…", for the answer's order (a join of v_picked there cost 15 us a row more)
    DECLARE v_taken TEXT;
    DECLARE v_next DATETIME(6); -- when the next article on the editor's desks becomes available (if not full)
    DECLARE v_held TEXT; -- the valid leases the editor holds: [id, …]
    DECLARE v_listed INT DEFAULT 0; -- how many of them the refresh's history rows went through
    DECLARE v_rest VARCHAR(4000); -- the desks still to look at for the next available article
    DECLARE v_acted_by VARCHAR(64); -- the account that acted for v_actor, if another (acted_by), once
    DECLARE v_lease_desk VARCHAR(32); -- the desk v_lease_end is for: read once per desk, not per row
    DECLARE v_lease_end DATETIME(6);
    -- SKIP_LOCKED while a lapsed lease waits to be taken over: ix_article_claim, free and lapsed rows
    -- alike. A held article stays 'queued' until its decision, so the rows held right now sit at the
    -- head of each priority there and this scan walks past them.
    DECLARE skipping CURSOR FOR SELECT id, locked_by, lease_token, desk_id, stage_id FROM article
        WHERE status = 'queued' AND available_at <= v_now AND (locked_by IS NULL OR expires_at <= v_now)
          AND FIND_IN_SET(desk_id, v_desks) > 0
          AND NOT (passed_by <=> v_actor AND passed_until > v_now)
          AND NOT (kept_from <=> v_actor) AND held_at IS NULL
          AND (stage_id IS NULL OR (FIND_IN_SET(CONCAT(desk_id, '/', stage_id), v_stages) > 0
               AND (four_eyes_barred IS NULL OR FIND_IN_SET(v_actor, four_eyes_barred) = 0)))
        ORDER BY status, priority, due_order, queue_lane, available_at, id LIMIT v_want FOR UPDATE SKIP LOCKED;
    -- SKIP_LOCKED while no lease has lapsed (nearly always: the release service frees lapsed
    -- leases): free rows only, from ix_article_free (free rows first within 'queued', in claim
    -- order), where the held rows are not in the way.
    DECLARE skipping_free CURSOR FOR SELECT id, locked_by, lease_token, desk_id, stage_id FROM article FORCE INDEX (ix_article_free)
        WHERE status = 'queued' AND locked_by IS NULL AND available_at <= v_now
          AND FIND_IN_SET(desk_id, v_desks) > 0
          AND NOT (passed_by <=> v_actor AND passed_until > v_now)
          AND NOT (kept_from <=> v_actor) AND held_at IS NULL
          AND (stage_id IS NULL OR (FIND_IN_SET(CONCAT(desk_id, '/', stage_id), v_stages) > 0
               AND (four_eyes_barred IS NULL OR FIND_IN_SET(v_actor, four_eyes_barred) = 0)))
        -- (not "ORDER BY status, locked_by, …": MySQL 8 does not count IS NULL as a constant there,
        -- sorts, and a sorting locking read locks every free row it sorts)
        ORDER BY priority, due_order, queue_lane, available_at, id LIMIT v_want FOR UPDATE SKIP LOCKED;
    -- BLOCKING and OPTIMISTIC: candidates read without locks, then taken one by one by primary
    -- key (a locking scan of the claim index locks index entries and then waits for the rows behind
    -- them, while a decision holds its row and then updates the same entries: the two deadlocked).
    -- A read starts at a random place (among articles as urgent as the head of the queue: see the
    -- rounds) among the first 32 times as many rows as the claim still
    -- needs and keeps 8 times as many, in claim order, so that claimers reading the head of the
    -- queue at the same moment mostly take different rows instead of all queueing on its first row
    -- and waiting for each other's commits one after the other (64 claimers from the head: claim
    -- p99 1.6 s against 0.22 s for SKIP_LOCKED, docs/benchmarks.md). Within a read every claimer
    -- takes rows in the same order, so two claims can wait for each other but never in a circle.
    -- (Split into interleaved groups instead, a claim that lost rows in its own group went on to
    -- rows ahead of the ones it held: 430 deadlocks in 10 s at 64 editors.) A read that finds
    -- nothing from its random place is made again from the head; one used up before the claim is
    -- full is made again (see the rounds below). LIMIT with an offset, not a window function over
    -- the rows read: that sorted and copied them three times, ten times the reads.
    -- reading: free and lapsed rows alike, from ix_article_claim, while a lapsed lease waits;
    DECLARE reading CURSOR FOR SELECT id, locked_by, lease_token, desk_id, stage_id FROM article
         WHERE status = 'queued' AND available_at <= v_now AND (locked_by IS NULL OR expires_at <= v_now)
           AND FIND_IN_SET(desk_id, v_desks) > 0
           AND NOT (passed_by <=> v_actor AND passed_until > v_now)
           AND NOT (kept_from <=> v_actor) AND held_at IS NULL
           AND (stage_id IS NULL OR (FIND_IN_SET(CONCAT(desk_id, '/', stage_id), v_stages) > 0
                AND (four_eyes_barred IS NULL OR FIND_IN_SET(v_actor, four_eyes_barred) = 0)))
           AND priority BETWEEN v_lowest_priority AND v_highest_priority
           AND due_order BETWEEN v_lowest_due AND v_highest_due
           AND queue_lane BETWEEN v_lowest_lane AND v_highest_lane
         ORDER BY status, priority, due_order, queue_lane, available_at, id LIMIT v_skip, v_scan;
    -- reading_free: the free rows only, from ix_article_free, past the rows others hold (nearly
    -- always: see skipping_free). Without it every read walked the held rows at the head of the
    -- queue, each with a look-up of its row: 320 of them with 64 editors.
    DECLARE reading_free CURSOR FOR SELECT id, locked_by, lease_token, desk_id, stage_id FROM article FORCE INDEX (ix_article_free)
         WHERE status = 'queued' AND locked_by IS NULL AND available_at <= v_now
           AND FIND_IN_SET(desk_id, v_desks) > 0
           AND NOT (passed_by <=> v_actor AND passed_until > v_now)
           AND NOT (kept_from <=> v_actor) AND held_at IS NULL
           AND (stage_id IS NULL OR (FIND_IN_SET(CONCAT(desk_id, '/', stage_id), v_stages) > 0
                AND (four_eyes_barred IS NULL OR FIND_IN_SET(v_actor, four_eyes_barred) = 0)))
           AND priority BETWEEN v_lowest_priority AND v_highest_priority
           AND due_order BETWEEN v_lowest_due AND v_highest_due
           AND queue_lane BETWEEN v_lowest_lane AND v_highest_lane
         ORDER BY priority, due_order, queue_lane, available_at, id LIMIT v_skip, v_scan;
    DECLARE CONTINUE HANDLER FOR NOT FOUND SET v_done = 1;
    DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN CALL operation_fails(); RESIGNAL; END;

    CALL operation_begins();
    CALL resolve_actor(p_as, 'editor', v_actor);
    SET v_acted_by = acted_by(v_actor);
    IF p_strategy IS NOT NULL AND p_strategy NOT IN ('SKIP_LOCKED', 'BLOCKING', 'OPTIMISTIC') THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: unknown claim strategy';
    END IF;
    START TRANSACTION;
    SET v_now = server_utc_now();
    -- one claim at a time per editor (two windows of the same person cannot both fill up): the
    -- editor's row, locked by the UPDATE that notes when they were last seen, until COMMIT
    UPDATE editor SET last_seen_at = v_now WHERE id = v_actor;
    -- their capacity, desks and stages in one read (the whole list: operation_begins sets
    -- group_concat_max_len). SELECT … INTO, not SET v = (SELECT …): InnoDB reads the subquery of a
    -- SET with shared locks (it is not a SELECT statement), and those are held until COMMIT.
    -- p_desks may name a desk (every stage of it the editor may take) or one stage ("news/legal").
    -- A stage's named takers need not be on its desk (a lawyer for Legal): their desks are the
    -- desks they are on and those with a stage naming them.
    -- The editor's own choice (editor.work_choice, set_work_choice; same entries as p_desks) narrows
    -- it the same way, on the row read anyway. Its entries the editor may no longer work (an admin
    -- took them off a desk since) are passed over; when none is left, the choice is ignored (v_usable
    -- 0, read only when there is a choice) and the list is read again without it: the editor takes
    -- everything they may work rather than nothing.
    choosing: LOOP
        SELECT capacity,
               (SELECT GROUP_CONCAT(m.desk_id) FROM (
                    SELECT d.desk_id FROM editor_desk d WHERE d.editor_id = v_actor
                    UNION SELECT t.desk_id FROM stage_taker t WHERE t.editor_id = v_actor) m
                 WHERE (p_desks IS NULL OR FIND_IN_SET(m.desk_id, p_desks) > 0
                        OR EXISTS (SELECT 1 FROM desk_stage q WHERE q.desk_id = m.desk_id
                                    AND FIND_IN_SET(CONCAT(q.desk_id, '/', q.stage_id), p_desks) > 0))
                   AND (e.work_choice IS NULL OR v_choice_ignored OR FIND_IN_SET(m.desk_id, e.work_choice) > 0
                        OR EXISTS (SELECT 1 FROM desk_stage q WHERE q.desk_id = m.desk_id
                                    AND FIND_IN_SET(CONCAT(q.desk_id, '/', q.stage_id), e.work_choice) > 0))),
               (SELECT GROUP_CONCAT(CONCAT(s.desk_id, '/', s.stage_id)) FROM desk_stage s
                 WHERE (p_desks IS NULL OR FIND_IN_SET(s.desk_id, p_desks) > 0
                        OR FIND_IN_SET(CONCAT(s.desk_id, '/', s.stage_id), p_desks) > 0)
                   AND (e.work_choice IS NULL OR v_choice_ignored OR FIND_IN_SET(s.desk_id, e.work_choice) > 0
                        OR FIND_IN_SET(CONCAT(s.desk_id, '/', s.stage_id), e.work_choice) > 0)
                   AND ((s.takers = 'desk' AND EXISTS (SELECT 1 FROM editor_desk d WHERE d.editor_id = v_actor AND d.desk_id = s.desk_id))
                        OR (s.takers = 'named' AND EXISTS (SELECT 1 FROM stage_taker t WHERE t.desk_id = s.desk_id
                                                              AND t.stage_id = s.stage_id AND t.editor_id = v_actor)))),
               -- with a choice: does any entry still name something the editor may take? a stage they
               -- take (named, or of a desk they are on), or a desk without stages they are on
               IF(e.work_choice IS NULL OR v_choice_ignored, 1,
                  EXISTS (SELECT 1 FROM desk_stage s
                           WHERE (FIND_IN_SET(s.desk_id, e.work_choice) > 0
                                  OR FIND_IN_SET(CONCAT(s.desk_id, '/', s.stage_id), e.work_choice) > 0)
                             AND ((s.takers = 'desk' AND EXISTS (SELECT 1 FROM editor_desk d
                                                                  WHERE d.editor_id = v_actor AND d.desk_id = s.desk_id))
                                  OR (s.takers = 'named' AND EXISTS (SELECT 1 FROM stage_taker t WHERE t.desk_id = s.desk_id
                                                                        AND t.stage_id = s.stage_id AND t.editor_id = v_actor))))
                  OR EXISTS (SELECT 1 FROM editor_desk d WHERE d.editor_id = v_actor AND FIND_IN_SET(d.desk_id, e.work_choice) > 0
                                AND NOT EXISTS (SELECT 1 FROM desk_stage q WHERE q.desk_id = d.desk_id)))
          INTO v_capacity, v_desks, v_stages, v_usable FROM editor e WHERE e.id = v_actor;
        IF v_usable OR v_usable IS NULL THEN
            LEAVE choosing;
        END IF;
        SET v_choice_ignored = 1;
    END LOOP;
    IF v_capacity IS NULL THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'Copydesk: there is no editor of that name';
    END IF;

    -- Reload: every valid lease to the desk's length from now, never past the desk's maximum hold
    -- from the claim, never shorter than it is. The leases are found with a plain read (see v_desks
    -- above) and then locked by primary key only: any lock on a range of ix_article_locked_by also
    -- takes the next editor's first entry, which that editor's decision or claim needs (a deadlock;
    -- measured with an UPDATE over the range: 231 retries in 8 s at 8 editors).
    SELECT JSON_ARRAYAGG(id) INTO v_held FROM article WHERE locked_by = v_actor AND expires_at > v_now;
    IF v_held IS NOT NULL THEN
        UPDATE article a FORCE INDEX (PRIMARY)
          JOIN JSON_TABLE(v_held, '$[*]' COLUMNS (id BIGINT PATH '$')) h ON a.id = h.id
           SET a.expires_at = renewed_lease_end(a.desk_id, a.stage_id, p_max_lease_seconds, a.expires_at, a.claimed_at, v_now),
               a.renewals = a.renewals + 1
         WHERE a.locked_by = v_actor AND a.expires_at > v_now;
        SET v_refreshed = ROW_COUNT();
        -- One history row for the reload, the editor's (resource 'editor'), not one per article: five
        -- rows an F5 per editor were most of a newsroom's audit. Its detail lists each lease as
        -- [article, token, new end]; at most 25 to a row (25 of the leases read above, in the order
        -- read), so that the list always fits the detail's 2,000 characters (25 leases with 19-digit
        -- ids and tokens take 1,776). Readers: RefreshedLeases. No token or end of its own: they are
        -- each lease's. One aggregate per 25, not a GROUP BY over all: grouping read 200 rows more of a
        -- temporary table for 5 leases.
        WHILE v_listed < JSON_LENGTH(v_held) DO
            INSERT INTO lease_event (occurred_at, resource, row_key, action, actor, old_owner, new_owner, old_token,
                                     lease_token, expires_at, detail, acted_by)
            SELECT v_now, 'editor', v_actor, 'refresh', v_actor, v_actor, v_actor, NULL, NULL, NULL,
                   CONCAT('[', GROUP_CONCAT(CONCAT('[', a.id, ',', a.lease_token, ',"',
                                                   DATE_FORMAT(a.expires_at, '%Y-%m-%d %H:%i:%s.%f'), '"]') ORDER BY a.id), ']'),
                   v_acted_by
              FROM article a FORCE INDEX (PRIMARY)
              JOIN JSON_TABLE(v_held, '$[*]' COLUMNS (n FOR ORDINALITY, id BIGINT PATH '$')) h ON a.id = h.id
             WHERE h.n > v_listed AND h.n <= v_listed + 25 AND a.locked_by = v_actor AND a.expires_at > v_now
            HAVING COUNT(*) > 0;
            SET v_listed = v_listed + 25;
        END WHILE;
    END IF;

    SET v_want = LEAST(v_capacity, COALESCE(p_limit, v_capacity)) - v_refreshed;
    IF p_strategy IN ('OPTIMISTIC', 'BLOCKING') THEN
        SET v_spread = RAND();
    END IF;
    IF v_want > 0 AND v_desks IS NOT NULL THEN
        -- a plain read of ix_article_expires: only lapsed leases are in its range
        SELECT EXISTS (SELECT 1 FROM article FORCE INDEX (ix_article_expires)
                        WHERE expires_at <= v_now AND status = 'queued' AND FIND_IN_SET(desk_id, v_desks) > 0)
          INTO v_lapsed;
    END IF;
    -- Rounds: SKIP_LOCKED reads once (its locking read passes over the rows others are taking, so a
    -- short answer means nothing more is claimable). BLOCKING and OPTIMISTIC read without locks, so
    -- the rows other claims are taking at that moment look free to them: when every candidate of a
    -- read turned out taken (each after waiting for the claim that took it to commit), they read the
    -- queue again, which no longer shows those rows, until the claim is full or a read finds nothing.
    -- Without this, 64 editors claiming at once got empty hands while 190,000 articles waited
    -- (docs/benchmarks.md). Each round ends only after its candidates were taken or seen taken, so
    -- each read is further down the queue; 20 reads of 8 batches is more than every other editor's
    -- claims in flight can hide.
    claiming: WHILE v_claimed < v_want AND v_desks IS NOT NULL AND v_round < 20 DO
        SET v_round = v_round + 1;
        -- BLOCKING and OPTIMISTIC: where this read starts and what it keeps to (SKIP_LOCKED's cursors
        -- use none of it: one test instead of eleven statements a claim)
        IF p_strategy IN ('OPTIMISTIC', 'BLOCKING') THEN
            SET v_seen = 0;
            SET v_scan = (v_want - v_claimed) * 8;
            SET v_skip = FLOOR(v_spread * 31 * (v_want - v_claimed));
            -- A read from a random place keeps to the urgency of the head of the editor's queue (its
            -- priority, due time and lane), so that it passes over only articles as urgent as the ones
            -- it takes, never a more urgent one (with a due time on every article, few share the head's:
            -- the read then finds nothing past the random place and the next one starts at the head); and while work that came back or that a supervisor moved to the
            -- front (lane 0) heads the queue, the read starts at the head, so that such work is taken
            -- first, in order. When the head's urgency has no rows left from the random place, the read
            -- finds nothing and the next one starts from the head, unbounded.
            IF v_skip > 0 AND v_head_priority IS NULL THEN
                IF v_lapsed = 0 THEN
                    SELECT priority, due_order, queue_lane INTO v_head_priority, v_head_due, v_head_lane FROM article FORCE INDEX (ix_article_free)
                     WHERE status = 'queued' AND locked_by IS NULL AND available_at <= v_now
                       AND FIND_IN_SET(desk_id, v_desks) > 0
                       AND NOT (passed_by <=> v_actor AND passed_until > v_now)
                       AND NOT (kept_from <=> v_actor) AND held_at IS NULL
                       AND (stage_id IS NULL OR (FIND_IN_SET(CONCAT(desk_id, '/', stage_id), v_stages) > 0
                            AND (four_eyes_barred IS NULL OR FIND_IN_SET(v_actor, four_eyes_barred) = 0)))
                     ORDER BY priority, due_order, queue_lane, available_at, id LIMIT 1;
                ELSE
                    SELECT priority, due_order, queue_lane INTO v_head_priority, v_head_due, v_head_lane FROM article
                     WHERE status = 'queued' AND available_at <= v_now AND (locked_by IS NULL OR expires_at <= v_now)
                       AND FIND_IN_SET(desk_id, v_desks) > 0
                       AND NOT (passed_by <=> v_actor AND passed_until > v_now)
                       AND NOT (kept_from <=> v_actor) AND held_at IS NULL
                       AND (stage_id IS NULL OR (FIND_IN_SET(CONCAT(desk_id, '/', stage_id), v_stages) > 0
                            AND (four_eyes_barred IS NULL OR FIND_IN_SET(v_actor, four_eyes_barred) = 0)))
                     ORDER BY status, priority, due_order, queue_lane, available_at, id LIMIT 1;
                END IF;
                IF v_head_priority IS NULL THEN
                    LEAVE claiming; -- nothing the editor may claim waits
                END IF;
            END IF;
            IF v_head_lane = 0 THEN
                SET v_skip = 0;
            END IF;
            IF v_skip > 0 THEN
                SET v_lowest_priority = v_head_priority, v_highest_priority = v_head_priority,
                    v_lowest_due = v_head_due, v_highest_due = v_head_due,
                    v_lowest_lane = v_head_lane, v_highest_lane = v_head_lane;
            ELSE
                SET v_lowest_priority = -2147483648, v_highest_priority = 2147483647,
                    v_lowest_due = '1000-01-01 00:00:00.000', v_highest_due = '9999-12-31 23:59:59.999',
                    v_lowest_lane = -2147483648, v_highest_lane = 2147483647;
            END IF;
        END IF;
        SET v_done = 0;
        -- (the common case, SKIP_LOCKED with no lapsed lease waiting, is the first test in each
        -- choice of cursor: one test per row, not two)
        IF v_lapsed = 0 AND (p_strategy IS NULL OR p_strategy = 'SKIP_LOCKED') THEN
            OPEN skipping_free; -- locks the rows it returns (and passes over rows other claims lock)
        ELSEIF p_strategy IS NULL OR p_strategy = 'SKIP_LOCKED' THEN
            OPEN skipping; -- free and lapsed rows alike, past the rows held
        ELSEIF v_lapsed = 0 THEN
            OPEN reading_free;
        ELSE
            OPEN reading;
        END IF;
        pick: LOOP
            IF JSON_LENGTH(v_picked) >= v_want THEN LEAVE pick; END IF;
            IF v_lapsed = 0 AND (p_strategy IS NULL OR p_strategy = 'SKIP_LOCKED') THEN
                FETCH skipping_free INTO v_id, v_owner, v_token, v_desk, v_stage;
            ELSEIF p_strategy IS NULL OR p_strategy = 'SKIP_LOCKED' THEN
                FETCH skipping INTO v_id, v_owner, v_token, v_desk, v_stage;
            ELSEIF v_lapsed = 0 THEN
                FETCH reading_free INTO v_id, v_owner, v_token, v_desk, v_stage;
            ELSE
                FETCH reading INTO v_id, v_owner, v_token, v_desk, v_stage;
            END IF;
            IF v_done = 1 THEN LEAVE pick; END IF;
            IF p_strategy IN ('OPTIMISTIC', 'BLOCKING') THEN
                SET v_seen = v_seen + 1; -- (the rounds' count: SKIP_LOCKED reads once)
                IF p_strategy = 'BLOCKING' THEN
                    -- the classic locking read, by primary key: waits while another claim takes the
                    -- row, then sees whether it is still free; one row at a time in claim order and never
                    -- on the claim index, so a claim and a decision cannot deadlock
                    SET v_token = NULL;
                    SELECT lease_token, locked_by INTO v_token, v_owner FROM article
                     WHERE id = v_id AND status = 'queued' AND (locked_by IS NULL OR expires_at <= v_now) FOR UPDATE;
                    SET v_done = 0;
                    IF v_token IS NULL THEN
                        ITERATE pick; -- taken meanwhile
                    END IF;
                END IF;
            END IF;
            -- Take it. SKIP_LOCKED and BLOCKING hold the row's lock, so the token they read is its
            -- token; for OPTIMISTIC this is the compare-and-set on the token read without a lock,
            -- which fails if anyone took the row meanwhile. (An article's desk never changes; its
            -- stage changes only while no one holds it, and the take below checks it is the stage read.)
            IF NOT (v_lease_desk <=> v_desk AND v_lease_stage <=> v_stage) THEN
                SET v_lease_end = lease_expiry(v_desk, v_stage, p_max_lease_seconds, v_now), v_lease_desk = v_desk,
                    v_lease_stage = v_stage;
            END IF;
            UPDATE article
               SET locked_by = v_actor, expires_at = v_lease_end, lease_token = v_token + 1, queue_lane = 0,
                   claimed_at = v_now, renewals = 0, passed_by = NULL, passed_until = NULL
             WHERE id = v_id AND lease_token = v_token AND locked_by <=> v_owner AND status = 'queued'
               AND (locked_by IS NULL OR expires_at <= v_now) AND stage_id <=> v_stage
               AND NOT (kept_from <=> v_actor) AND held_at IS NULL; -- a keep or hold set since the read
            -- (the owner too: a sweep that freed the lapsed lease since the read keeps its token, and
            -- the history would tell that lease's end twice)
            IF ROW_COUNT() = 0 THEN
                ITERATE pick;
            END IF;
            SET v_picked = JSON_ARRAY_APPEND(v_picked, '$', JSON_ARRAY(v_id, COALESCE(v_owner, ''), v_token,
                                                                        DATE_FORMAT(v_lease_end, '%Y-%m-%d %H:%i:%s.%f')));
            SET v_taken = CONCAT_WS(',', v_taken, v_id);
        END LOOP;
        SET v_claimed = JSON_LENGTH(v_picked);
        IF v_lapsed = 0 AND (p_strategy IS NULL OR p_strategy = 'SKIP_LOCKED') THEN
            CLOSE skipping_free;
        ELSEIF p_strategy IS NULL OR p_strategy = 'SKIP_LOCKED' THEN
            CLOSE skipping;
        ELSEIF v_lapsed = 0 THEN
            CLOSE reading_free;
        ELSE
            CLOSE reading;
        END IF;
        IF (v_seen = 0 AND v_skip = 0) OR p_strategy IS NULL OR p_strategy = 'SKIP_LOCKED' THEN
            LEAVE claiming;
        ELSEIF v_seen = 0 THEN
            SET v_spread = 0; -- fewer rows wait than were passed over: from the head
        END IF;
    END WHILE;
    -- History in claim order, once every row is taken: a lapsed lease taken over ends ("expire"),
    -- then each claim. After the loop, so that no statement runs between one compare-and-set and
    -- the next (written inside the loop, OPTIMISTIC's tail at 64 editors looked worse in the claim
    -- benchmark, though too noisy to be sure). One INSERT for the claim's rows, from what the takes
    -- remembered: written row by row, reading each back cost eight statements a row
    -- (RoutineStatementProfile, docs/benchmarks.md). The leases taken over, when a lapsed lease
    -- waited at all, come first.
    IF v_claimed > 0 THEN
        IF v_lapsed = 1 THEN
            INSERT INTO lease_event (occurred_at, resource, row_key, action, actor, old_owner, new_owner, old_token,
                                     lease_token, expires_at, detail, acted_by)
            SELECT v_now, 'article', CAST(h.id AS CHAR), 'expire', v_actor, h.owner, NULL, h.token, NULL, NULL,
                   CONCAT('lapsed lease taken over by ', v_actor), v_acted_by
              FROM JSON_TABLE(v_picked, '$[*]' COLUMNS (n FOR ORDINALITY, id BIGINT PATH '$[0]',
                                                       owner VARCHAR(64) PATH '$[1]', token BIGINT PATH '$[2]')) h
             WHERE h.owner <> '' ORDER BY h.n;
        END IF;
        INSERT INTO lease_event (occurred_at, resource, row_key, action, actor, old_owner, new_owner, old_token,
                                 lease_token, expires_at, detail, acted_by)
        SELECT v_now, 'article', CAST(h.id AS CHAR), 'claim', v_actor, NULLIF(h.owner, ''), v_actor, h.token, h.token + 1,
               h.expires, NULL, v_acted_by
          FROM JSON_TABLE(v_picked, '$[*]' COLUMNS (n FOR ORDINALITY, id BIGINT PATH '$[0]', owner VARCHAR(64) PATH '$[1]',
                                                   token BIGINT PATH '$[2]', expires DATETIME(6) PATH '$[3]')) h
         ORDER BY h.n;
    END IF;
    COMMIT;

    IF v_refreshed + v_claimed < v_capacity THEN
        -- Desk by desk: the first entry of ix_article_desk_status past now, one index read each. (As
        -- one query joining the desks, or with a subquery per desk, the server reads every waiting
        -- article of the desk: the desk is not a constant there, so the index serves the desk and
        -- status but not the range past now; and a short claim, which is when this runs, then read the
        -- whole queue, 200,000 rows at a time in the benchmark.)
        SET v_rest = v_desks;
        WHILE v_rest IS NOT NULL DO
            SET v_desk = SUBSTRING_INDEX(v_rest, ',', 1);
            SET v_rest = NULLIF(SUBSTRING(v_rest, CHAR_LENGTH(v_desk) + 2), '');
            SELECT LEAST(COALESCE(MIN(available_at), v_next), COALESCE(v_next, MIN(available_at))) INTO v_next
              FROM article WHERE desk_id = v_desk AND status = 'queued' AND available_at > v_now
               AND held_at IS NULL;
        END WHILE;
    END IF;
    SELECT v_now AS server_now, v_refreshed AS refreshed, v_claimed AS claimed, v_capacity AS capacity,
           v_next AS next_available_at;
    -- what was refreshed (by id), then what was taken, in claim order
    SELECT a.id, a.external_id, a.desk_id, a.title, a.byline, a.priority, a.attempts, a.available_at, a.locked_by,
           a.lease_token, a.expires_at, v_now AS server_now, a.stage_id, a.due_at
      FROM article a
     WHERE a.locked_by = v_actor AND a.expires_at > v_now
     ORDER BY FIND_IN_SET(a.id, v_taken) > 0, FIND_IN_SET(a.id, v_taken), a.id;
END$$

DELIMITER ;
