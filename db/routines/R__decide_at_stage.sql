DROP PROCEDURE IF EXISTS decide_at_stage;

DELIMITER $$

-- An editor's decision under their lease, in one transaction: the article's new state and the end
-- of the lease (fenced by owner and token), the decision (unique per request id, so a retried
-- submit is recognised), the history, the draft's removal, and the outcome event for the
-- newsroom's systems. Nothing changes if the lease is gone. A decision is made against the revision
-- the holder was handed: when a newer one has arrived it is refused ('outdated') and the notes are
-- kept as the holder's draft. The decision row records its revision.
-- approve, reject and unreviewable decide the article (approved, rejected, quarantined). send_back
-- (changes requested) quarantines it past the desk's send-back limit; otherwise, on a desk that
-- waits for its writers, it waits for the writer's next revision ('awaiting_writer', no timer),
-- and on any other desk it returns to the queue after a back-off that doubles with each send-back.
-- The desk is read only for a send-back, the only verdict that needs its limits; the outcome event
-- is written from what the first read and the UPDATE already know, last (see there).
--
-- On a desk with stages (docs/workflow.md) the decision is the article's step through the stage it
-- is held at: approve moves it to the next stage that is entered (always, or when_asked and asked
-- for) in this same transaction, unheld, and only at the last one is it the final approval above;
-- reject and unreviewable end the chain as above; send_back goes to the writer as above (the
-- article comes back at this stage, one pass later) or, with p_to_stage, to that earlier stage of
-- the desk (unheld, at the front of its queue, one pass later). p_ask: when_asked stages after this
-- one that the article must go through ("needs legal"), comma-separated. The database checks that
-- the editor may take this stage, and four eyes: at a four_eyes stage no one approves who approved
-- the article at another stage. A stage step writes its own outcome event (stage_passed,
-- stage_returned) carrying the stage and where the article went; a final decision's event is as on
-- a desk without stages. decide_article is this with neither p_to_stage nor p_ask.
-- Result: outcome (recorded, already, lost, gone, outdated), article_id, verdict, status,
-- returns_at, quarantined, stage_id (where the article is now; NULL on a desk without stages).
CREATE PROCEDURE decide_at_stage(IN p_as VARCHAR(64), IN p_article BIGINT, IN p_token BIGINT, IN p_request CHAR(36),
                                 IN p_verdict VARCHAR(16), IN p_notes TEXT, IN p_to_stage VARCHAR(32), IN p_ask VARCHAR(1000))
    SQL SECURITY DEFINER MODIFIES SQL DATA
BEGIN
    -- (each DECLARE is a statement the server runs at every call: a variable only one branch needs
    -- is declared in that branch; RoutineStatementProfile, docs/benchmarks.md)
    DECLARE v_actor VARCHAR(64);
    DECLARE v_now DATETIME(6);
    -- before the transaction, a refusal of the call's arguments; then NULL while the lease is the
    -- caller's and the revision the one handed out, 'lost' when the lease is not theirs (any more),
    -- 'outdated' when a newer revision arrived
    DECLARE v_state VARCHAR(128);
    DECLARE v_desk VARCHAR(32);
    DECLARE v_external VARCHAR(128);
    DECLARE v_attempts INT;
    DECLARE v_revision INT;
    DECLARE v_new_status VARCHAR(16);
    DECLARE v_returns DATETIME(6) DEFAULT NULL;
    DECLARE v_quarantine VARCHAR(64) DEFAULT NULL; -- why a send-back quarantines it (past the desk's limit)
    DECLARE v_has_draft INT DEFAULT 0;
    DECLARE v_acted_by VARCHAR(64); -- the account that acted for v_actor, if another (acted_by), once
    DECLARE v_stage VARCHAR(32); -- the stage the article is held at (NULL: a desk without stages)
    DECLARE v_pass INT;
    DECLARE v_to VARCHAR(32); -- the stage the article moves to (a stage step), if any
    -- the common stage step, checked in one read (below): 0 or NULL, stage_step decides; 1, it may go
    -- on to a stage that is not four-eyes (or none); 2, to a four-eyes stage
    DECLARE v_step_ok INT;
    DECLARE CONTINUE HANDLER FOR NOT FOUND BEGIN END; -- no such row: the variables stay NULL
    DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN CALL operation_fails(); RESIGNAL; END;

    CALL operation_begins();
    CALL resolve_actor(p_as, 'editor', v_actor);
    -- what people and other systems type is stored as plain text (plain_text)
    SET p_notes = plain_text(p_notes, 60000, 1);
    SET v_state = CASE
        WHEN p_verdict IS NULL OR p_verdict NOT IN ('approve', 'reject', 'send_back', 'unreviewable')
            THEN 'Copydesk: a decision is approve, reject, send_back or unreviewable'
        WHEN p_verdict <> 'approve' AND TRIM(COALESCE(p_notes, '')) = '' THEN 'Copydesk: this decision needs notes that say why'
        WHEN CHAR_LENGTH(p_notes) > 60000 THEN 'Copydesk: the notes are longer than 60,000 characters'
        WHEN p_request IS NULL OR CHAR_LENGTH(p_request) <> 36 THEN 'Copydesk: a decision needs its request id'
    END;
    IF v_state IS NOT NULL THEN
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = v_state;
    END IF;
    START TRANSACTION;
    -- the lease, whether the editor left a draft (deleted with the decision), the server's time and
    -- who acted, in one read under the article's row lock (no row: all stay NULL, and nothing is written)
    SELECT IF(locked_by <=> v_actor AND lease_token <=> p_token AND status = 'queued',
              IF(COALESCE(held_revision, revision) <> revision, 'outdated', NULL), 'lost'),
           desk_id, external_id, attempts, revision,
           EXISTS (SELECT 1 FROM review_draft r WHERE r.article_id = p_article AND r.editor_id = v_actor), stage_id, pass,
           server_utc_now(), acted_by(v_actor)
      INTO v_state, v_desk, v_external, v_attempts, v_revision, v_has_draft, v_stage, v_pass, v_now, v_acted_by
      FROM article WHERE id = p_article FOR UPDATE;
    IF v_desk IS NULL OR v_state = 'lost' THEN BEGIN
        DECLARE v_earlier_article BIGINT DEFAULT NULL;
        DECLARE v_earlier_verdict VARCHAR(16);
        -- a decision sent again (the answer to the first was lost) finds its article decided:
        -- the first one's outcome, by request id, is the answer
        SELECT article_id, verdict INTO v_earlier_article, v_earlier_verdict FROM decision WHERE request_id = p_request;
        COMMIT;
        SELECT CASE WHEN v_earlier_article IS NOT NULL THEN 'already' WHEN v_desk IS NULL THEN 'gone' ELSE 'lost' END AS outcome,
               COALESCE(v_earlier_article, p_article) AS article_id,
               IF(v_earlier_article IS NULL, p_verdict, v_earlier_verdict) AS verdict, NULL AS status,
               NULL AS returns_at, 0 AS quarantined, NULL AS stage_id;
    END;
    ELSEIF v_state = 'outdated' THEN
        -- a newer revision arrived while the editor read; their notes wait as a draft
        INSERT INTO review_draft (article_id, editor_id, verdict, notes, saved_at)
        VALUES (p_article, v_actor, p_verdict, COALESCE(p_notes, ''), v_now)
        ON DUPLICATE KEY UPDATE verdict = VALUES(verdict), notes = VALUES(notes), saved_at = VALUES(saved_at);
        COMMIT;
        SELECT 'outdated' AS outcome, p_article AS article_id, p_verdict AS verdict, NULL AS status, NULL AS returns_at,
               0 AS quarantined, NULL AS stage_id;
    ELSE
        IF v_stage IS NOT NULL OR p_to_stage IS NOT NULL OR p_ask IS NOT NULL THEN
            IF v_stage IS NOT NULL AND p_to_stage IS NULL AND p_ask IS NULL THEN
                -- The common step, naming no stage and asking for none, in one read of three rows by
                -- their keys (no subquery: each would be optimized at every decision): the stage, the
                -- holder's place on the desk, and the stage after this one (positions run 1, 2, 3 …
                -- without gaps: set_desk_stage, remove_desk_stage and order_desk_stages keep them so).
                -- It answers for a stage the desk's editors take, when an approval meets no four-eyes
                -- rule here and the next stage, if any, is always entered. Anything else (named takers,
                -- four eyes, a when_asked stage next, a refusal) is stage_step's, which checks it all
                -- and says why it refuses. stage_step's call, frame and tests were 24 statements per
                -- decision at a stage, and a read with subqueries cost 198 us per row
                -- (docs/benchmarks.md, "A desk with a review chain").
                -- (a variable declared for the step alone would cost every decision a statement)
                SELECT (s.takers = 'desk' AND m.editor_id IS NOT NULL
                        AND (p_verdict <> 'approve' OR (s.four_eyes = 0 AND (n.stage_id IS NULL OR n.entered = 'always'))))
                       * IF(n.four_eyes = 1, 2, 1),
                       IF(p_verdict = 'approve', n.stage_id, NULL)
                  INTO v_step_ok, v_to
                  FROM desk_stage s
                  LEFT JOIN editor_desk m ON m.editor_id = v_actor AND m.desk_id = s.desk_id
                  LEFT JOIN desk_stage n ON n.desk_id = s.desk_id AND n.position = s.position + 1
                 WHERE s.desk_id = v_desk AND s.stage_id = v_stage;
            END IF;
            IF COALESCE(v_step_ok, 0) = 0 THEN
                -- checks who may decide here, four eyes and the stages named; where the article goes
                CALL stage_step(v_actor, p_article, v_desk, v_stage, p_verdict, p_to_stage, p_ask, v_now, v_to);
                SET v_step_ok = NULL; -- whether its stage is four-eyes: not known
            END IF;
        END IF;
        IF v_to IS NOT NULL THEN BEGIN
            DECLARE v_barred VARCHAR(2000); -- who may not approve it at a four-eyes stage it moves to
            -- a stage step: the article waits at the stage it moves to, unheld; a send-back to an
            -- earlier stage goes to the front of that stage's queue and starts a new pass. At a
            -- four-eyes stage the people who approved it at another stage are passed over by the claim.
            -- (the decision row is written first, so that an approval here counts for four eyes below)
            INSERT INTO decision (request_id, article_id, editor_id, verdict, notes, lease_token, decided_at, revision, acted_by,
                                  stage_id, pass)
            VALUES (p_request, p_article, v_actor, p_verdict, COALESCE(p_notes, ''), p_token, v_now, v_revision, v_acted_by,
                    v_stage, v_pass);
            -- each read its own statement, run only when needed: a subquery in the UPDATE below
            -- would be optimized at every step, needed or not
            IF v_step_ok IS NULL THEN
                SELECT IF(four_eyes = 1, 2, 1) INTO v_step_ok FROM desk_stage WHERE desk_id = v_desk AND stage_id = v_to;
            END IF;
            IF v_step_ok = 2 THEN
                SELECT GROUP_CONCAT(DISTINCT d.editor_id) INTO v_barred FROM decision d
                 WHERE d.article_id = p_article AND d.verdict = 'approve' AND d.stage_id IS NOT NULL AND d.stage_id <> v_to;
            END IF;
            UPDATE article
               SET stage_id = v_to, pass = v_pass + IF(p_verdict = 'send_back', 1, 0), locked_by = NULL, expires_at = NULL,
                   queue_lane = IF(p_verdict = 'send_back', 0, 1), updated_at = v_now,
                   kept_from = NULL, passed_by = NULL, passed_until = NULL,
                   four_eyes_barred = v_barred
             WHERE id = p_article;
            INSERT INTO lease_event (occurred_at, resource, row_key, action, actor, old_owner, new_owner, old_token,
                                     lease_token, expires_at, detail, acted_by)
            VALUES (v_now, 'article', CAST(p_article AS CHAR), 'complete', v_actor, v_actor, NULL, p_token, NULL, NULL, p_verdict,
                    v_acted_by),
                   (v_now, 'article', CAST(p_article AS CHAR), 'stage', v_actor, NULL, NULL, NULL, NULL, NULL,
                    plain_text(CONCAT(IF(p_verdict = 'approve', 'approved at ', 'sent back from '), v_stage, ' to ', v_to,
                                      IF(COALESCE(p_notes, '') = '', '', CONCAT(': ', p_notes))), 2000, 0), v_acted_by);
            IF v_has_draft THEN
                DELETE FROM review_draft WHERE article_id = p_article AND editor_id = v_actor;
            END IF;
            UPDATE outcome_order SET last_event = v_now WHERE id = 1;
            INSERT INTO outcome_event (idempotency_key, outcome, article_id, external_id, desk_id, editor_id, verdict, notes,
                                       article_status, send_backs, returns_at, lease_token, decided_at, next_attempt_at,
                                       stage_id, to_stage_id)
            VALUES (p_request, IF(p_verdict = 'approve', 'stage_passed', 'stage_returned'), p_article, v_external, v_desk, v_actor,
                    p_verdict, COALESCE(p_notes, ''), 'queued', v_attempts, NULL, p_token, v_now, v_now, v_stage, v_to);
            COMMIT;
            SELECT 'recorded' AS outcome, p_article AS article_id, p_verdict AS verdict, 'queued' AS status,
                   NULL AS returns_at, 0 AS quarantined, v_to AS stage_id;
        END;
        ELSE
            SET v_new_status = CASE p_verdict WHEN 'approve' THEN 'approved' WHEN 'reject' THEN 'rejected'
                                              WHEN 'unreviewable' THEN 'quarantined' END;
            IF v_new_status IS NULL THEN BEGIN -- send_back: the desk's limits
                DECLARE v_max_send_backs INT;
                DECLARE v_delay BIGINT;
                DECLARE v_waits INT;
                SELECT max_send_backs, send_back_delay_seconds, send_back_waits_for_writer
                  INTO v_max_send_backs, v_delay, v_waits FROM desk WHERE id = v_desk;
                SET v_attempts = v_attempts + 1;
                IF v_attempts > v_max_send_backs THEN
                    SET v_new_status = 'quarantined';
                    SET v_quarantine = CONCAT('sent back more than ', v_max_send_backs, ' times');
                ELSEIF v_waits = 1 THEN
                    -- changes requested: waits for the writer's revision, no timer
                    SET v_new_status = 'awaiting_writer';
                ELSE
                    SET v_new_status = 'queued';
                    -- the first delay, doubled for each further send-back, at most two days
                    SET v_returns = TIMESTAMPADD(SECOND,
                            CAST(LEAST(172800, v_delay * POW(2, LEAST(v_attempts - 1, 20))) AS SIGNED), v_now);
                END IF;
            END;
            END IF;
            UPDATE article
               SET status = v_new_status, attempts = v_attempts, locked_by = NULL, expires_at = NULL,
                   available_at = COALESCE(v_returns, available_at), updated_at = v_now,
                   decided_by = IF(v_new_status = 'queued', NULL, v_actor),
                   decided_at = IF(v_new_status = 'queued', NULL, v_now),
                   decision_note = p_notes, kept_from = NULL, -- decided: no one is kept from it any more
                   -- sent back to the writer at a stage: it comes back at this stage, in a new pass
                   pass = pass + IF(v_stage IS NOT NULL AND p_verdict = 'send_back', 1, 0)
             WHERE id = p_article;
            -- history: the lease ends, the verdict, and a quarantine past the desk's send-back limit
            INSERT INTO lease_event (occurred_at, resource, row_key, action, actor, old_owner, new_owner, old_token,
                                     lease_token, expires_at, detail, acted_by)
            VALUES (v_now, 'article', CAST(p_article AS CHAR), 'complete', v_actor, v_actor, NULL, p_token, NULL, NULL, p_verdict,
                    v_acted_by),
                   (v_now, 'article', CAST(p_article AS CHAR), p_verdict, v_actor, NULL, NULL, NULL, NULL, NULL,
                    -- the notes on one line of at most 2,000 characters; they are plain text already
                    -- (above), so only a tab, a line feed or their length can make that line differ from
                    -- them, and most notes need no second call
                    IF(CHAR_LENGTH(p_notes) <= 2000 AND LOCATE(_utf8mb4 X'09', p_notes COLLATE utf8mb4_bin) = 0
                           AND LOCATE(_utf8mb4 X'0A', p_notes COLLATE utf8mb4_bin) = 0,
                       p_notes, plain_text(p_notes, 2000, 0)), v_acted_by);
            IF v_quarantine IS NOT NULL THEN
                CALL log_event(p_article, 'quarantine', v_actor, NULL, NULL, NULL, NULL, NULL, v_quarantine, v_now);
            END IF;
            INSERT INTO decision (request_id, article_id, editor_id, verdict, notes, lease_token, decided_at, revision, acted_by,
                                  stage_id, pass)
            VALUES (p_request, p_article, v_actor, p_verdict, COALESCE(p_notes, ''), p_token, v_now, v_revision, v_acted_by,
                    v_stage, IF(v_stage IS NULL, NULL, v_pass));
            IF v_has_draft THEN
                DELETE FROM review_draft WHERE article_id = p_article AND editor_id = v_actor;
            END IF;
            -- The outcome goes out with the decision, in the same transaction. Last, because it takes
            -- the feed's order lock (outcome_order), held until the COMMIT below, which every decision
            -- needs in turn: cursors in commit order. (record_outcome writes the same columns for the
            -- operations that have not read the article; here one read and one nested call less.)
            UPDATE outcome_order SET last_event = v_now WHERE id = 1;
            INSERT INTO outcome_event (idempotency_key, outcome, article_id, external_id, desk_id, editor_id, verdict, notes,
                                       article_status, send_backs, returns_at, lease_token, decided_at, next_attempt_at, stage_id)
            VALUES (p_request, CASE p_verdict WHEN 'approve' THEN 'approved' WHEN 'reject' THEN 'rejected'
                               WHEN 'send_back' THEN 'changes_requested' ELSE 'unreviewable' END,
                    p_article, v_external, v_desk, v_actor, p_verdict, COALESCE(p_notes, ''), v_new_status, v_attempts,
                    v_returns, p_token, v_now, v_now, v_stage);
            COMMIT;
            SELECT 'recorded' AS outcome, p_article AS article_id, p_verdict AS verdict, v_new_status AS status,
                   v_returns AS returns_at, v_quarantine IS NOT NULL AS quarantined, v_stage AS stage_id;
        END IF;
    END IF;
END$$

DELIMITER ;
