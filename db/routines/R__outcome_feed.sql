DROP VIEW IF EXISTS outcome_feed;

-- The feed for systems that read it with SQL: the feed's columns, nothing else (no delivery state).
-- stage_id, to_stage_id (last, as new columns come): a stage step's stage and where the article went
-- (stage_passed, stage_returned); the stage of a final decision on a desk with stages; else NULL.
-- due_at (last): a deadline event's due time (deadline_missed), UTC; NULL for every other event.
CREATE SQL SECURITY DEFINER VIEW outcome_feed AS
SELECT id AS cursor_id, idempotency_key, outcome, article_id, external_id, desk_id, editor_id, verdict, notes,
       article_status, send_backs, returns_at, lease_token, decided_at, stage_id, to_stage_id, due_at
  FROM outcome_event;
