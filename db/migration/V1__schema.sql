-- Copydesk schema, version 1.
-- Runs on MySQL 8.0.1+ and MariaDB 10.6+ (and parses in jOOQ's DDL reader, which generates the Java
-- classes from this very file: keep to separate CREATE INDEX statements, no table comments, no
-- generated columns, no TINYINT(1) or UNSIGNED types; see ../shared/STACK-NOTES.md).
-- Every time is DATETIME(6) in UTC, written by the server (NOW(6) on a UTC session).

-- A desk is a section of the newsroom. Its lease length and retry rules apply to its articles.
CREATE TABLE desk (
    id                      VARCHAR(32)  NOT NULL,
    name                    VARCHAR(100) NOT NULL,
    lease_seconds           INT          NOT NULL DEFAULT 1800,
    -- the longest a supervisor may extend one lease to (a lock's maximum hold time)
    max_lease_seconds       INT          NOT NULL DEFAULT 14400,
    -- an article sent back more often than this is quarantined automatically
    max_send_backs          INT          NOT NULL DEFAULT 3,
    -- first back-off after a send-back; it doubles with each further attempt
    send_back_delay_seconds INT          NOT NULL DEFAULT 900,
    created_at              DATETIME(6)  NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
    CONSTRAINT pk_desk PRIMARY KEY (id),
    CONSTRAINT ck_desk_lease CHECK (lease_seconds BETWEEN 30 AND 86400 AND max_lease_seconds >= lease_seconds),
    CONSTRAINT ck_desk_retries CHECK (max_send_backs >= 0 AND send_back_delay_seconds >= 0)
);

-- An editor is a person who reviews; id is the sign-in name (and, against a real server, the
-- database account's user name).
CREATE TABLE editor (
    id           VARCHAR(64)  NOT NULL,
    display_name VARCHAR(100) NOT NULL,
    role         ENUM('editor', 'supervisor', 'admin') NOT NULL DEFAULT 'editor',
    capacity     INT          NOT NULL DEFAULT 5,
    -- last time the editor's client showed the editor active (heartbeat); drives online/idle/offline
    last_seen_at DATETIME(6)  NULL,
    created_at   DATETIME(6)  NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
    CONSTRAINT pk_editor PRIMARY KEY (id),
    CONSTRAINT ck_editor_capacity CHECK (capacity BETWEEN 0 AND 100)
);

CREATE TABLE editor_desk (
    editor_id VARCHAR(64) NOT NULL,
    desk_id   VARCHAR(32) NOT NULL,
    CONSTRAINT pk_editor_desk PRIMARY KEY (editor_id, desk_id),
    CONSTRAINT fk_editor_desk_editor FOREIGN KEY (editor_id) REFERENCES editor (id) ON DELETE CASCADE,
    CONSTRAINT fk_editor_desk_desk FOREIGN KEY (desk_id) REFERENCES desk (id)
);

-- The leasable table. status is the review state; whether an article is held right now is
-- locked_by + expires_at (a lease is valid while expires_at > NOW(6)), so an expired lease needs no
-- sweep before someone else can claim the article.
CREATE TABLE article (
    id             BIGINT       NOT NULL AUTO_INCREMENT,
    -- the id the sending system uses; makes re-imports idempotent
    external_id    VARCHAR(128) NOT NULL,
    desk_id        VARCHAR(32)  NOT NULL,
    title          VARCHAR(300) NOT NULL,
    byline         VARCHAR(200) NULL,
    body           MEDIUMTEXT   NOT NULL,
    -- 1 is most urgent, 5 least; ascending order is claim order
    priority       INT          NOT NULL DEFAULT 3,
    status         ENUM('queued', 'approved', 'rejected', 'quarantined') NOT NULL DEFAULT 'queued',
    -- embargo / scheduled review / send-back back-off: invisible to claims before this time
    available_at   DATETIME(6)  NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
    -- 0 = work that has been claimed before and came back (lapsed or released lease), 1 = fresh.
    -- Ascending order puts returning work ahead of fresh work of the same priority.
    queue_lane     INT          NOT NULL DEFAULT 1,
    locked_by      VARCHAR(64)  NULL,
    expires_at     DATETIME(6)  NULL,
    -- fencing token: a new value at every claim; every write under a lease must present it
    lease_token    BIGINT       NOT NULL DEFAULT 0,
    claimed_at     DATETIME(6)  NULL,
    renewals       INT          NOT NULL DEFAULT 0,
    -- how many times the article was sent back for changes
    attempts       INT          NOT NULL DEFAULT 0,
    decided_by     VARCHAR(64)  NULL,
    decided_at     DATETIME(6)  NULL,
    decision_note  TEXT         NULL,
    created_at     DATETIME(6)  NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
    updated_at     DATETIME(6)  NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
    CONSTRAINT pk_article PRIMARY KEY (id),
    CONSTRAINT fk_article_desk FOREIGN KEY (desk_id) REFERENCES desk (id),
    CONSTRAINT ck_article_priority CHECK (priority BETWEEN 1 AND 5),
    CONSTRAINT ck_article_lane CHECK (queue_lane IN (0, 1))
);

-- Re-imports look articles up by the sender's id.
CREATE UNIQUE INDEX uq_article_external_id ON article (external_id);

-- Serves the claim: WHERE status = 'queued' ... ORDER BY priority, queue_lane, available_at, id.
-- The column order equals the claim order, so a locking claim walks the index from its head and
-- stops after LIMIT rows instead of sorting (and locking) every waiting article. desk_id and the
-- lease columns are checked on the rows walked; the rows held right now sit at the head of each
-- priority, at most (editors x capacity) of them.
CREATE INDEX ix_article_claim ON article (status, priority, queue_lane, available_at, id);

-- Serves the expiry sweep (WHERE expires_at < NOW(6) AND locked_by IS NOT NULL, oldest first, in
-- small batches) and the holder lookups: an editor's own leases, the supervisor's live table.
CREATE INDEX ix_article_expires ON article (expires_at);
CREATE INDEX ix_article_locked_by ON article (locked_by, expires_at);

-- Serves queue-health counts per desk and status.
CREATE INDEX ix_article_desk_status ON article (desk_id, status, available_at);

-- Append-only history of every lease and review event. Rows are written in the same transaction
-- as the change they describe, with the server's clock.
CREATE TABLE lease_event (
    id           BIGINT        NOT NULL AUTO_INCREMENT,
    occurred_at  DATETIME(6)   NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
    -- which leasable table (the engine can lease any table); 'article' here
    resource     VARCHAR(64)   NOT NULL,
    -- the row's key as text; composite keys are joined with '|'
    row_key      VARCHAR(200)  NOT NULL,
    action       VARCHAR(32)   NOT NULL,
    actor        VARCHAR(64)   NOT NULL,
    old_owner    VARCHAR(64)   NULL,
    new_owner    VARCHAR(64)   NULL,
    -- the lease this event ended or changed (NULL when the row was free) ...
    old_token    BIGINT        NULL,
    -- ... and the lease valid after it (NULL when the row is free afterwards)
    lease_token  BIGINT        NULL,
    expires_at   DATETIME(6)   NULL,
    detail       VARCHAR(2000) NULL,
    CONSTRAINT pk_lease_event PRIMARY KEY (id)
);

-- An article's history, in order.
CREATE INDEX ix_lease_event_row ON lease_event (resource, row_key, id);
-- Time-range audit queries, per-hour charts and the purge of old history.
CREATE INDEX ix_lease_event_time ON lease_event (occurred_at);
-- Audit filtered by editor.
CREATE INDEX ix_lease_event_actor ON lease_event (actor, occurred_at);

-- Decisions, one per request: request_id makes a retried submit (after a lost reply) idempotent.
CREATE TABLE decision (
    id           BIGINT       NOT NULL AUTO_INCREMENT,
    request_id   CHAR(36)     NOT NULL,
    article_id   BIGINT       NOT NULL,
    editor_id    VARCHAR(64)  NOT NULL,
    verdict      ENUM('approve', 'reject', 'send_back', 'unreviewable') NOT NULL,
    notes        TEXT         NOT NULL,
    lease_token  BIGINT       NOT NULL,
    decided_at   DATETIME(6)  NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
    CONSTRAINT pk_decision PRIMARY KEY (id),
    CONSTRAINT fk_decision_article FOREIGN KEY (article_id) REFERENCES article (id) ON DELETE CASCADE
);

CREATE UNIQUE INDEX uq_decision_request ON decision (request_id);
-- An article's decisions, and "finished today" per editor.
CREATE INDEX ix_decision_article ON decision (article_id, decided_at);
CREATE INDEX ix_decision_editor ON decision (editor_id, decided_at);

-- The editor's notes as they type, so a crash or a lost lease never loses them.
CREATE TABLE review_draft (
    article_id BIGINT       NOT NULL,
    editor_id  VARCHAR(64)  NOT NULL,
    verdict    VARCHAR(32)  NULL,
    notes      TEXT         NOT NULL,
    saved_at   DATETIME(6)  NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
    CONSTRAINT pk_review_draft PRIMARY KEY (article_id, editor_id),
    CONSTRAINT fk_review_draft_article FOREIGN KEY (article_id) REFERENCES article (id) ON DELETE CASCADE
);

-- Rows an import could not take: kept with their line number, raw text and reason until a
-- supervisor corrects and requeues or discards them.
CREATE TABLE import_quarantine (
    id          BIGINT        NOT NULL AUTO_INCREMENT,
    import_id   VARCHAR(64)   NOT NULL,
    source_name VARCHAR(500)  NOT NULL,
    line_number BIGINT        NOT NULL,
    raw_text    MEDIUMTEXT    NOT NULL,
    reason      VARCHAR(1000) NOT NULL,
    created_at  DATETIME(6)   NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
    resolved_at DATETIME(6)   NULL,
    CONSTRAINT pk_import_quarantine PRIMARY KEY (id)
);

-- The open quarantine list, newest first, per import.
CREATE INDEX ix_import_quarantine_open ON import_quarantine (resolved_at, import_id, line_number);
