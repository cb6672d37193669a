DROP VIEW IF EXISTS outcome_feed;

-- The feed for systems that read it with SQL: the feed's columns, nothing else (no delivery state).
CREATE SQL SECURITY DEFINER VIEW outcome_feed AS
SELECT id AS cursor_id, idempotency_key, outcome, article_id, external_id, desk_id, editor_id, verdict, notes,
       article_status, send_backs, returns_at, lease_token, decided_at
  FROM outcome_event;
