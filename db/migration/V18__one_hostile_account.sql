-- One hostile account can neither stop the newsroom nor own the server.
--
-- * Rights are values, checked by role_rights against a fixed list, never SQL: role_grant may name
--   only SELECT, EXECUTE (on an operation), and for admins a few table writes; admins lose ALL on
--   the schema (with it they could change role_grant and its CHECKs, call the owner's statement
--   runner, shadow a table with a temporary one, create routines) and keep the account operations,
--   the people and desks tables, and the purge of history and delivered outcomes. Migrations and
--   grants are the owner's.
-- * Limits on what one session may hold, read by the sweep (end_stuck_sessions,
--   abandoned_xa_transactions) and by the account operations (connections per account; statement
--   time per account on MariaDB), and what the sweep ended and suspended.
-- * Every history row and decision records who was signed in when that is not the person it names
--   (an admin acting for an editor).

CREATE TABLE session_limit (
    id                     INT NOT NULL,
    -- a person's or another system's session that holds row locks this long outside an operation is ended
    lock_seconds           INT NOT NULL,
    -- a transaction open and idle this long is ended (it holds metadata locks a schema change waits for)
    idle_seconds           INT NOT NULL,
    -- a statement running this long is stopped
    statement_seconds      INT NOT NULL,
    -- how long an account whose session held row locks stays suspended (0: not suspended)
    suspend_seconds        INT NOT NULL,
    -- an XA transaction left prepared this long after its session went away is rolled back (0: never)
    xa_seconds             INT NOT NULL,
    -- connections one account may have open at once (the desktop app uses up to 5 and a command 2)
    max_user_connections   INT NOT NULL,
    -- MariaDB: statement time per account (the session can lift it; the sweep's limit holds anyway)
    max_statement_seconds  INT NOT NULL,
    CONSTRAINT pk_session_limit PRIMARY KEY (id),
    CONSTRAINT ck_session_limit_single CHECK (id = 1),
    CONSTRAINT ck_session_limit_values CHECK (lock_seconds BETWEEN 1 AND 3600 AND idle_seconds BETWEEN 1 AND 86400
        AND statement_seconds BETWEEN 1 AND 86400 AND suspend_seconds BETWEEN 0 AND 604800 AND xa_seconds BETWEEN 0 AND 86400
        AND max_user_connections BETWEEN 1 AND 1000 AND max_statement_seconds BETWEEN 0 AND 86400)
);

INSERT INTO session_limit (id, lock_seconds, idle_seconds, statement_seconds, suspend_seconds, xa_seconds,
                           max_user_connections, max_statement_seconds)
VALUES (1, 2, 30, 60, 900, 30, 12, 60);

-- Accounts the sweep suspended (locked) after one of their sessions held row locks, and until when.
CREATE TABLE account_suspension (
    account          VARCHAR(64) NOT NULL,
    suspended_at     DATETIME(6) NOT NULL,
    suspended_until  DATETIME(6) NOT NULL,
    CONSTRAINT pk_account_suspension PRIMARY KEY (account)
);

-- What the sweep ended: whose session, why, and the suspension it brought.
CREATE TABLE ended_session (
    id               BIGINT      NOT NULL AUTO_INCREMENT,
    ended_at         DATETIME(6) NOT NULL,
    account          VARCHAR(64) NOT NULL,
    connection_id    BIGINT      NOT NULL,
    reason           VARCHAR(32) NOT NULL,
    suspended_until  DATETIME(6) NULL,
    CONSTRAINT pk_ended_session PRIMARY KEY (id),
    CONSTRAINT uq_ended_session UNIQUE (account, connection_id, reason)
);

-- Who was signed in, when that is not the person the row names (an admin acting for an editor
-- through p_as); NULL when they are the same. Written by the operations (acted_by()) from USER(),
-- which the client cannot set.
ALTER TABLE lease_event ADD COLUMN acted_by VARCHAR(64) NULL;
ALTER TABLE decision ADD COLUMN acted_by VARCHAR(64) NULL;

-- Rights may be table writes (for admins only; role_rights decides which), and admins have rows
-- of their own.
ALTER TABLE role_grant DROP CONSTRAINT role_grant_privilege;
ALTER TABLE role_grant ADD CONSTRAINT role_grant_privilege CHECK (privilege IN ('SELECT', 'INSERT', 'UPDATE', 'DELETE', 'EXECUTE'));
ALTER TABLE role_grant DROP CONSTRAINT role_grant_role;
ALTER TABLE role_grant ADD CONSTRAINT role_grant_role CHECK (role IN ('editor', 'supervisor', 'admin', 'feed_reader', 'relay'));

DELETE FROM role_grant WHERE privilege = 'EXECUTE' AND object_name = 'end_stuck_transactions';
INSERT INTO role_grant (role, privilege, object_name, columns) VALUES
    -- the sweep every client runs
    ('editor', 'EXECUTE', 'end_stuck_sessions', NULL),
    ('editor', 'EXECUTE', 'abandoned_xa_transactions', NULL),
    -- what the sweep ended, and who is suspended (the dashboard)
    ('supervisor', 'SELECT', 'ended_session', NULL),
    ('supervisor', 'SELECT', 'account_suspension', NULL),
    ('supervisor', 'SELECT', 'session_limit', NULL),
    -- an admin: people's and other systems' accounts
    ('admin', 'EXECUTE', 'create_account', NULL),
    ('admin', 'EXECUTE', 'regrant_account', NULL),
    ('admin', 'EXECUTE', 'set_account_password', NULL),
    ('admin', 'EXECUTE', 'drop_account', NULL),
    ('admin', 'EXECUTE', 'create_integration_account', NULL),
    ('admin', 'EXECUTE', 'drop_integration_account', NULL),
    ('admin', 'EXECUTE', 'lift_suspension', NULL),
    ('admin', 'SELECT', 'integration_account', NULL),
    -- people and desks (copydesk editors add, desks add, desks set-lease)
    ('admin', 'INSERT', 'desk', NULL),
    ('admin', 'UPDATE', 'desk', NULL),
    ('admin', 'DELETE', 'desk', NULL),
    ('admin', 'INSERT', 'editor', NULL),
    ('admin', 'UPDATE', 'editor', NULL),
    ('admin', 'DELETE', 'editor', NULL),
    ('admin', 'INSERT', 'editor_desk', NULL),
    ('admin', 'UPDATE', 'editor_desk', NULL),
    ('admin', 'DELETE', 'editor_desk', NULL),
    -- purge (copydesk purge): old history and delivered outcomes
    ('admin', 'DELETE', 'lease_event', NULL),
    ('admin', 'DELETE', 'outcome_event', NULL);

-- [jooq ignore start]
DROP PROCEDURE IF EXISTS end_stuck_transactions;
-- [jooq ignore stop]
