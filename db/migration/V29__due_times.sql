-- Deadlines: when each article is due, the claim order that takes what is due first, and the
-- deadline events (docs/deadlines.md). Every time is the server's clock in UTC (server_utc_now()),
-- never the session's: a session may set @@time_zone and @@timestamp. Like every table of the
-- schema, these name no character set: they take the database's, which the owner's migration makes
-- utf8mb4 first (DatabaseCharacterSet; docs/servers.md).

-- When the article must be through review, UTC, to the millisecond (NULL: no due time). Written only
-- by the owner's operations: the import, correct_import_row and a supervisor's set_due_time.
ALTER TABLE article ADD COLUMN due_at DATETIME(3) NULL;
-- The due time as the claim orders it: due_at, or the end of the calendar for an article with none
-- (the claim index must sort "no due time" after every due time, and an index sorts NULL first),
-- or, after a supervisor's move to the front, just before the earliest due time of its priority.
-- NOT NULL with a constant default: an instant column on MySQL 8 and MariaDB, no table copy.
ALTER TABLE article ADD COLUMN due_order DATETIME(3) NOT NULL DEFAULT '9999-12-31 00:00:00.000';
-- The due time the sweep has yet to tell about (deadline_missed), NULL once told or when there is none:
-- the sweep reads the range up to now of its own index and nothing else, however many late
-- articles wait.
ALTER TABLE article ADD COLUMN due_watch_at DATETIME(3) NULL;

CREATE INDEX ix_article_due_watch ON article (due_watch_at);
-- What is due soon, per status (the Deadlines list, copydesk due list): a range of due times.
CREATE INDEX ix_article_due ON article (status, due_at);

-- The claim order gains the due time after the priority (docs/workflow.md, "Claim order"): an
-- earlier due time is taken first within a priority, then work that came back, then arrival. The
-- column order equals the claim order, so a claim still walks the index from its head.
-- One statement: a claim running meanwhile (the old claim_articles names these indexes, an upgrade
-- runs while editors work) finds either the old indexes or the new ones, never neither (1176).
-- (jOOQ's code generator does not parse several index clauses in one ALTER: it skips what is between
-- the markers; no generated code reads these indexes' columns.)
-- [jooq ignore start]
ALTER TABLE article
    DROP INDEX ix_article_claim,
    ADD INDEX ix_article_claim (status, priority, due_order, queue_lane, available_at, id),
    DROP INDEX ix_article_free,
    ADD INDEX ix_article_free (status, locked_by, priority, due_order, queue_lane, available_at, id);
-- [jooq ignore stop]

-- A desk's default: an article imported without a due time is due this long after it arrives
-- (NULL: no default).
ALTER TABLE desk ADD COLUMN due_after_seconds INT NULL;
ALTER TABLE desk ADD CONSTRAINT ck_desk_due_after CHECK (due_after_seconds IS NULL OR due_after_seconds BETWEEN 60 AND 2592000);

-- Deadline events, one per article, kind and due time: the unique key makes "exactly once" hold
-- however many clients sweep at the same moment, and a due time moved later and missed again is a
-- new event. kind: deadline_missed (the due time passed while the article was in review);
-- deadline_at_risk (a forecast miss, with the forecast in detail) comes with the forecast.
CREATE TABLE deadline_event (
    id          BIGINT        NOT NULL AUTO_INCREMENT,
    article_id  BIGINT        NOT NULL,
    kind        VARCHAR(32)   NOT NULL,
    due_at      DATETIME(3)   NOT NULL,
    occurred_at DATETIME(6)   NOT NULL,
    -- the stage the article was at (NULL on a desk without stages) and who held it then, if anyone
    stage_id    VARCHAR(32)   NULL,
    held_by     VARCHAR(64)   NULL,
    detail      VARCHAR(1000) NULL,
    CONSTRAINT pk_deadline_event PRIMARY KEY (id),
    CONSTRAINT fk_deadline_event_article FOREIGN KEY (article_id) REFERENCES article (id) ON DELETE CASCADE,
    CONSTRAINT ck_deadline_event_kind CHECK (kind IN ('deadline_missed', 'deadline_at_risk'))
);

CREATE UNIQUE INDEX uq_deadline_event ON deadline_event (article_id, kind, due_at);
CREATE INDEX ix_deadline_event_time ON deadline_event (occurred_at);

-- A deadline event in the outcome feed carries the due time it is about (NULL for every other event).
ALTER TABLE outcome_event ADD COLUMN due_at DATETIME(3) NULL;

INSERT INTO role_grant (role, privilege, object_name, columns) VALUES
    -- the Deadlines view and the editor's card read the deadline events
    ('editor', 'SELECT', 'deadline_event', NULL),
    -- a supervisor sets or clears an article's due time, with a reason (in its history)
    ('supervisor', 'EXECUTE', 'set_due_time', NULL);
