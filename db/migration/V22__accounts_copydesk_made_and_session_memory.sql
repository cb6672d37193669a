-- The accounts the sweep and suspend_account may act on are the ones Copydesk itself gave a password
-- and a role, and each session of them is bounded in memory.
--
-- * person_account: a person's account that create_account made (or took over after require_person
--   found it had no right beyond this database). The sweep used to pick sessions by the names in
--   `editor`, which an admin may write: with rows for another application's account, for the owner
--   or for root, the sweep ended their sessions and locked them. Nobody but the owner's operations
--   writes this table (no role_grant row names it), so an admin cannot make an account "managed" by
--   writing rows. Other systems' accounts are already recorded so: integration_account.
-- * session_limit.memory_bytes: a person's or another system's session that uses more memory than
--   this between operations (MariaDB's information_schema.PROCESSLIST.MEMORY_USED: user variables,
--   prepared statements, open HANDLERs …) is ended and its account suspended, as for held row locks.
--   MariaDB lets any session lift its own max_session_mem_used, so the server's limit alone bounds
--   nothing against a hostile account.

CREATE TABLE person_account (
    name        VARCHAR(64) NOT NULL,
    -- when create_account made or renewed it (or the upgrade that found it), server time (UTC)
    created_at  DATETIME(6) NOT NULL,
    CONSTRAINT pk_person_account PRIMARY KEY (name)
);

-- [jooq ignore start]
-- Existing installs: the accounts that create_account made before this table existed cannot be told
-- apart from the rows an admin wrote, so an account is taken in only if it looks like one Copydesk
-- made: named by a person of the newsroom, 'name'@'%', not the owner nor one of the server's own
-- accounts, no right on the whole server, at least one right on this database and none on another
-- (require_person's rules; a grant's database is a LIKE pattern). An account left out is taken in
-- again by the admin's create_account (which checks the same) on its next password or role change.
INSERT INTO person_account (name, created_at)
SELECT e.id, UTC_TIMESTAMP(6)
  FROM editor e JOIN mysql.user u ON u.user = e.id AND u.host = '%'
 WHERE e.id <> SUBSTRING_INDEX(CURRENT_USER(), '@', 1)
   AND e.id NOT IN ('root', 'mysql', 'mariadb.sys', 'mysql.sys', 'mysql.session', 'mysql.infoschema', 'PUBLIC')
   AND NOT EXISTS (SELECT 1 FROM integration_account i WHERE i.name = e.id)
   AND NOT EXISTS (SELECT 1 FROM mysql.user o WHERE o.user = e.id AND o.host <> '%')
   AND NOT EXISTS (SELECT 1 FROM information_schema.user_privileges p
                    WHERE p.grantee = CONCAT('''', e.id, '''@''%''') AND p.privilege_type <> 'USAGE')
   AND CONVERT(e.id USING utf8mb4) COLLATE utf8mb4_bin IN (
           SELECT g.user FROM (SELECT CONVERT(user USING utf8mb4) COLLATE utf8mb4_bin AS user, CONVERT(db USING utf8mb4) COLLATE utf8mb4_bin AS db
                       FROM mysql.db WHERE host = '%'
                     UNION SELECT CONVERT(user USING utf8mb4) COLLATE utf8mb4_bin, CONVERT(db USING utf8mb4) COLLATE utf8mb4_bin
                       FROM mysql.tables_priv WHERE host = '%'
                     UNION SELECT CONVERT(user USING utf8mb4) COLLATE utf8mb4_bin, CONVERT(db USING utf8mb4) COLLATE utf8mb4_bin
                       FROM mysql.columns_priv WHERE host = '%'
                     UNION SELECT CONVERT(user USING utf8mb4) COLLATE utf8mb4_bin, CONVERT(db USING utf8mb4) COLLATE utf8mb4_bin
                       FROM mysql.procs_priv WHERE host = '%') g
            WHERE CONVERT(DATABASE() USING utf8mb4) COLLATE utf8mb4_bin LIKE g.db)
   AND CONVERT(e.id USING utf8mb4) COLLATE utf8mb4_bin NOT IN (
           SELECT g.user FROM (SELECT CONVERT(user USING utf8mb4) COLLATE utf8mb4_bin AS user, CONVERT(db USING utf8mb4) COLLATE utf8mb4_bin AS db
                       FROM mysql.db WHERE host = '%'
                     UNION SELECT CONVERT(user USING utf8mb4) COLLATE utf8mb4_bin, CONVERT(db USING utf8mb4) COLLATE utf8mb4_bin
                       FROM mysql.tables_priv WHERE host = '%'
                     UNION SELECT CONVERT(user USING utf8mb4) COLLATE utf8mb4_bin, CONVERT(db USING utf8mb4) COLLATE utf8mb4_bin
                       FROM mysql.columns_priv WHERE host = '%'
                     UNION SELECT CONVERT(user USING utf8mb4) COLLATE utf8mb4_bin, CONVERT(db USING utf8mb4) COLLATE utf8mb4_bin
                       FROM mysql.procs_priv WHERE host = '%') g
             JOIN information_schema.schemata s ON CONVERT(s.schema_name USING utf8mb4) COLLATE utf8mb4_bin LIKE g.db
            WHERE CONVERT(s.schema_name USING utf8mb4) COLLATE utf8mb4_bin <> CONVERT(DATABASE() USING utf8mb4) COLLATE utf8mb4_bin);
-- [jooq ignore stop]

-- 64 MiB: a Copydesk session used 0.56 MiB between operations and at most 8 MiB during one (MariaDB 10.11)
-- (docs/security.md, "Memory and server-wide counters"); one prepared statement costs MariaDB about 32 KiB
ALTER TABLE session_limit ADD COLUMN memory_bytes BIGINT NOT NULL DEFAULT 67108864;
ALTER TABLE session_limit ADD CONSTRAINT ck_session_limit_memory CHECK (memory_bytes BETWEEN 16777216 AND 17179869184);
