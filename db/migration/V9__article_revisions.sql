-- Articles have revisions.
--
-- article_revision keeps every text an article has had (never overwritten; revision 1 is the
-- imported original). article.revision is the one editors see now. held_revision is the revision
-- the lease holder was handed (the trigger article_lease_revision sets it whenever a new lease is
-- taken); a decision is made against it and decision.revision records it.
--
-- "Send back" means changes requested: on a desk whose send_back_waits_for_writer is 1 (the
-- default) a sent-back article waits for its writer's revision in the status 'awaiting_writer'
-- (not claimable, no timer; decided_at says since when), and the import of a new revision returns
-- it to the queue at once, ahead of fresh work. A desk set to 0 keeps a timer instead (the article
-- returns after a growing back-off), for desks whose writers send no revisions in.
--
-- The articles already there get their text as revision 1, and the leases held now their revision.

ALTER TABLE article ADD COLUMN revision INT NOT NULL DEFAULT 1;
ALTER TABLE article ADD COLUMN held_revision INT NULL;
ALTER TABLE decision ADD COLUMN revision INT NULL;
ALTER TABLE article MODIFY COLUMN status ENUM('queued', 'approved', 'rejected', 'quarantined', 'awaiting_writer') NOT NULL;
ALTER TABLE article ALTER COLUMN status SET DEFAULT 'queued';
ALTER TABLE desk ADD COLUMN send_back_waits_for_writer INT NOT NULL DEFAULT 1;
ALTER TABLE desk ADD CONSTRAINT ck_desk_send_back_waits CHECK (send_back_waits_for_writer IN (0, 1));
-- Serves "what waits for writers, per desk, since when".
CREATE INDEX ix_article_waiting ON article (status, desk_id, decided_at);

CREATE TABLE article_revision (
    article_id  BIGINT        NOT NULL,
    revision    INT           NOT NULL,
    title       VARCHAR(300)  NOT NULL,
    byline      VARCHAR(200)  NULL,
    body        MEDIUMTEXT    NOT NULL,
    -- the import it came with (NULL for revision 1 of articles older than this migration)
    import_id   VARCHAR(64)   NULL,
    source_name VARCHAR(500)  NULL,
    arrived_at  DATETIME(6)   NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
    CONSTRAINT pk_article_revision PRIMARY KEY (article_id, revision),
    CONSTRAINT fk_article_revision_article FOREIGN KEY (article_id) REFERENCES article (id) ON DELETE CASCADE
);

INSERT INTO article_revision (article_id, revision, title, byline, body, arrived_at)
SELECT id, 1, title, byline, body, created_at FROM article;

UPDATE article SET held_revision = revision WHERE locked_by IS NOT NULL;
