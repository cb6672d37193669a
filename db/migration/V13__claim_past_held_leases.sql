-- The free rows first. A held article stays 'queued' until its decision, so in ix_article_claim the
-- rows held right now sit at the head of each priority, editors x capacity of them, and a
-- SKIP_LOCKED claim walked past every one (a look-up of the article and a check for another
-- transaction's lock on each). ix_article_free puts the free rows first within 'queued' (NULL sorts
-- first), in claim order, so a claim reads free rows only while no lease has lapsed.

CREATE INDEX ix_article_free ON article (status, locked_by, priority, queue_lane, available_at, id);
