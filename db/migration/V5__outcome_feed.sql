-- Copydesk schema, version 5: decisions go out.
--
-- Every outcome of a review (approved, rejected, changes requested, unreviewable; a supervisor's
-- requeue of a quarantined article) is written to an outbox, outcome_event, in the same
-- transaction as the decision itself: a decision and its outgoing event are never apart. Other
-- systems read it three ways:
--   * the feed (`copydesk feed --since CURSOR`): the events in id order; the id is the cursor, so
--     reading again from a cursor gives the same events and the cursor only grows;
--   * the webhook relay (`copydesk relay --url URL`): posts each event, in order per article, and
--     keeps its delivery state here, written only through the relay_* operations (db/routines);
--   * SQL: the view outcome_feed, the feed's columns and nothing else, for a read-only account
--     (an integration account of kind feed_reader).
--
-- Integration accounts (feed_reader, relay) are not people: they are listed in
-- integration_account and get only what their kind needs (apply_role), from the admin's
-- create_integration_account.

CREATE TABLE outcome_event (
    -- the feed's cursor: only grows
    id              BIGINT        NOT NULL AUTO_INCREMENT,
    -- the receiver's duplicate check: the decision's request id (a requeue makes its own)
    idempotency_key CHAR(36)      NOT NULL,
    -- approved, rejected, changes_requested, unreviewable, requeued
    outcome         VARCHAR(32)   NOT NULL,
    article_id      BIGINT        NOT NULL,
    external_id     VARCHAR(128)  NOT NULL,
    desk_id         VARCHAR(32)   NOT NULL,
    -- who decided (or requeued)
    editor_id       VARCHAR(64)   NOT NULL,
    -- the editor's verdict (approve, reject, send_back, unreviewable); NULL for a requeue
    verdict         VARCHAR(16)   NULL,
    notes           TEXT          NOT NULL,
    -- the article's status after the outcome: a send-back past the desk's limit is 'quarantined'
    article_status  VARCHAR(16)   NOT NULL,
    -- how often the article has been sent back so far
    send_backs      INT           NOT NULL,
    -- a send-back: when the article returns to the queue
    returns_at      DATETIME(6)   NULL,
    -- the lease the decision was made under (NULL for a requeue)
    lease_token     BIGINT        NULL,
    decided_at      DATETIME(6)   NOT NULL,
    -- the relay's delivery state; only the relay_* operations change it
    delivery        ENUM('waiting', 'delivered', 'failed') NOT NULL DEFAULT 'waiting',
    attempts        INT           NOT NULL DEFAULT 0,
    next_attempt_at DATETIME(6)   NULL,
    last_attempt_at DATETIME(6)   NULL,
    -- the receiver's last answer ("HTTP 500: ..." or why it could not be reached)
    last_answer     VARCHAR(1000) NULL,
    delivered_at    DATETIME(6)   NULL,
    CONSTRAINT pk_outcome_event PRIMARY KEY (id)
);

CREATE UNIQUE INDEX uq_outcome_event_key ON outcome_event (idempotency_key);
-- The relay's next batch: waiting events in cursor order ...
CREATE INDEX ix_outcome_event_delivery ON outcome_event (delivery, id);
-- ... whose article has no earlier undelivered event.
CREATE INDEX ix_outcome_event_article ON outcome_event (article_id, id);

-- Events get their cursor in commit order: whatever writes an outcome event updates this one row
-- before it inserts, and the row lock is held until the decision commits. Without it, a decision
-- that took id 10 and committed after one that took id 11 would be missed by a reader that had
-- already seen 11.
CREATE TABLE outcome_order (
    id          INT          NOT NULL,
    last_event  DATETIME(6)  NULL,
    CONSTRAINT pk_outcome_order PRIMARY KEY (id),
    CONSTRAINT ck_outcome_order_single CHECK (id = 1)
);

-- Accounts of other systems (not people): what kind each is decides its grants.
CREATE TABLE integration_account (
    name       VARCHAR(32)  NOT NULL,
    kind       ENUM('feed_reader', 'relay') NOT NULL,
    created_by VARCHAR(64)  NOT NULL,
    created_at DATETIME(6)  NOT NULL,
    CONSTRAINT pk_integration_account PRIMARY KEY (name)
);

-- One relay delivers at a time: it holds this lease (fenced by its token, like an editor's lease)
-- and renews it while it runs; a relay that died loses it when it expires.
CREATE TABLE relay_lease (
    id          INT          NOT NULL,
    holder      VARCHAR(200) NULL,
    token       BIGINT       NOT NULL DEFAULT 0,
    expires_at  DATETIME(6)  NULL,
    CONSTRAINT pk_relay_lease PRIMARY KEY (id),
    CONSTRAINT ck_relay_lease_single CHECK (id = 1)
);

-- The relay lease and the order row exist once, from the start.
INSERT INTO relay_lease (id, token) VALUES (1, 0);
INSERT INTO outcome_order (id) VALUES (1);
