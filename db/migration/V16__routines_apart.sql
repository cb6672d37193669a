-- From this version on, routines (procedures, functions, triggers, views) are not part of the
-- versioned migrations: each lives in a file of its own in db/routines, which a second Flyway
-- history (flyway_routines_history) applies after the versioned migrations whenever a file
-- changes. The versioned migrations keep tables, indexes and data.

-- Triggers of earlier versions that no file defines any more: the table guards the database's
-- operations replaced. Gone already from most databases; a schema older than those operations
-- still has them. (jOOQ's code generator does not parse DROP TRIGGER: it skips what is between the
-- markers.)
-- [jooq ignore start]
DROP TRIGGER IF EXISTS article_guard;
DROP TRIGGER IF EXISTS editor_guard;
DROP TRIGGER IF EXISTS decision_owner;
DROP TRIGGER IF EXISTS review_draft_owner_insert;
DROP TRIGGER IF EXISTS review_draft_owner_update;
DROP TRIGGER IF EXISTS review_draft_owner_delete;
DROP TRIGGER IF EXISTS lease_event_stamp;
-- [jooq ignore stop]

-- Every role reads which routines are applied, as it reads the versioned history: a client checks
-- both before it starts, and tells the person to ask an admin when either is behind.
INSERT INTO role_grant (role, privilege, object_name, columns) VALUES
    ('editor', 'SELECT', 'flyway_routines_history', NULL);
