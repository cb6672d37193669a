-- A desk's review chain: ordered stages (Copy edit -> Legal -> Sign-off), each handed out under a
-- lease as the single review is (docs/workflow.md). A desk without rows here has one implicit stage
-- and behaves exactly as before: its articles' stage_id stays NULL. Like every table of the schema,
-- these name no character set: they take the database's, which the owner's migration makes utf8mb4
-- first (DatabaseCharacterSet; docs/servers.md).

-- One stage of a desk's chain. position orders the chain (1 first); stage_id is the name the import,
-- the command line and the history use. lease_seconds NULL: the desk's lease length.
-- entered: 'always', or 'when_asked' (only when the previous reviewer or the import asked for it:
-- article_stage_request). four_eyes = 1: no one who approved the article at another stage may
-- approve it here. takers: 'desk' (the desk's editors) or 'named' (the people in stage_taker).
CREATE TABLE desk_stage (
    desk_id       VARCHAR(32)  NOT NULL,
    stage_id      VARCHAR(32)  NOT NULL,
    position      INT          NOT NULL,
    name          VARCHAR(100) NOT NULL,
    lease_seconds INT          NULL,
    entered       ENUM('always', 'when_asked') NOT NULL DEFAULT 'always',
    four_eyes     INT          NOT NULL DEFAULT 0,
    takers        ENUM('desk', 'named') NOT NULL DEFAULT 'desk',
    CONSTRAINT pk_desk_stage PRIMARY KEY (desk_id, stage_id),
    CONSTRAINT fk_desk_stage_desk FOREIGN KEY (desk_id) REFERENCES desk (id) ON DELETE CASCADE,
    CONSTRAINT ck_desk_stage_position CHECK (position BETWEEN 1 AND 1000),
    CONSTRAINT ck_desk_stage_lease CHECK (lease_seconds IS NULL OR lease_seconds BETWEEN 30 AND 86400),
    CONSTRAINT ck_desk_stage_four_eyes CHECK (four_eyes IN (0, 1))
);

CREATE UNIQUE INDEX uq_desk_stage_position ON desk_stage (desk_id, position);

-- Who may take a stage whose takers are 'named' (a lawyer for Legal). One person may be named at
-- several stages and desks.
CREATE TABLE stage_taker (
    desk_id   VARCHAR(32) NOT NULL,
    stage_id  VARCHAR(32) NOT NULL,
    editor_id VARCHAR(64) NOT NULL,
    CONSTRAINT pk_stage_taker PRIMARY KEY (desk_id, stage_id, editor_id),
    CONSTRAINT fk_stage_taker_stage FOREIGN KEY (desk_id, stage_id) REFERENCES desk_stage (desk_id, stage_id) ON DELETE CASCADE,
    CONSTRAINT fk_stage_taker_editor FOREIGN KEY (editor_id) REFERENCES editor (id) ON DELETE CASCADE
);

CREATE INDEX ix_stage_taker_editor ON stage_taker (editor_id);

-- Where an article is in its desk's chain: NULL on a desk without stages, else the stage it waits
-- in or is held at (one column, so an article is in exactly one stage). Only the owner's operations
-- write it (no role may write article). No foreign key to desk_stage: adding one rebuilds the whole
-- article table on MySQL 8 (a copying ALTER), which an upgrade should not cost; the stage operations
-- refuse to remove a stage that holds articles instead.
-- pass: 1, plus one each time the article re-enters the chain (a send-back to the writer or to an
-- earlier stage, a requeue): each stage is decided once per pass.
ALTER TABLE article ADD COLUMN stage_id VARCHAR(32) NULL;
ALTER TABLE article ADD COLUMN pass INT NOT NULL DEFAULT 1;
-- At a four-eyes stage: the people who approved the article at another stage, comma-separated,
-- written when the article enters the stage (NULL elsewhere). The claim passes over the article for
-- them with a look at its own row: a subquery on decision inside the claim's locking read would lock
-- decision rows too. decide_article checks the decisions themselves.
ALTER TABLE article ADD COLUMN four_eyes_barred VARCHAR(2000) NULL;

-- The stage and pass of each decision (NULL on a desk without stages): four eyes and the notes of
-- the stages before are read from here.
ALTER TABLE decision ADD COLUMN stage_id VARCHAR(32) NULL;
ALTER TABLE decision ADD COLUMN pass INT NULL;

-- A stage step in the outcome feed: the stage decided at, and the stage the article went to
-- (stage_passed, stage_returned); NULL for every outcome of a desk without stages.
ALTER TABLE outcome_event ADD COLUMN stage_id VARCHAR(32) NULL;
ALTER TABLE outcome_event ADD COLUMN to_stage_id VARCHAR(32) NULL;

-- A when_asked stage that was asked for: by a reviewer at an earlier stage ("needs legal") or by
-- the import. Kept until the article's final decision, so a revision that comes back goes through it
-- again.
CREATE TABLE article_stage_request (
    article_id BIGINT      NOT NULL,
    stage_id   VARCHAR(32) NOT NULL,
    asked_by   VARCHAR(64) NOT NULL,
    asked_at   DATETIME(6) NOT NULL,
    CONSTRAINT pk_article_stage_request PRIMARY KEY (article_id, stage_id),
    CONSTRAINT fk_article_stage_request_article FOREIGN KEY (article_id) REFERENCES article (id) ON DELETE CASCADE
);

INSERT INTO role_grant (role, privilege, object_name, columns) VALUES
    -- the chain, and what was asked for (the editor's card and reader: "Legal · 2 of 3")
    ('editor', 'SELECT', 'desk_stage', NULL),
    ('editor', 'SELECT', 'stage_taker', NULL),
    ('editor', 'SELECT', 'article_stage_request', NULL),
    -- a decision that names a stage to send back to, or asks for when_asked stages
    ('editor', 'EXECUTE', 'decide_at_stage', NULL),
    -- a supervisor moves an article to another stage of its desk, with a reason
    ('supervisor', 'EXECUTE', 'move_to_stage', NULL),
    -- an admin sets up a desk's chain
    ('admin', 'EXECUTE', 'set_desk_stage', NULL),
    ('admin', 'EXECUTE', 'order_desk_stages', NULL),
    ('admin', 'EXECUTE', 'remove_desk_stage', NULL),
    ('admin', 'EXECUTE', 'set_stage_takers', NULL);
