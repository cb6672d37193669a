DROP VIEW IF EXISTS managed_account;

-- The accounts Copydesk manages, with their role or kind: each person's account that create_account
-- made (person_account) and each other system's that create_integration_account made
-- (integration_account), as 'name'@'%' — tables that only the owner's operations write, so an admin
-- who adds a person named like another application's account, the owner or root does not make it
-- one of these. Never the account that owns the schema, an account with any right on the whole
-- server (the server's own: root, a DBA's), or a person's name that is also another system's.
-- The sweep ends sessions and suspend_account locks accounts of this view only. Read by the
-- owner's operations only: granted to nobody.
CREATE SQL SECURITY DEFINER VIEW managed_account AS
    SELECT e.id AS name, e.role AS role
      FROM editor e JOIN person_account a ON a.name = e.id
      JOIN mysql.user u ON u.user = e.id AND u.host = '%'
     WHERE is_account_name(e.id) = 1 AND e.id <> SUBSTRING_INDEX(CURRENT_USER(), '@', 1)
       AND NOT EXISTS (SELECT 1 FROM integration_account i WHERE i.name = e.id)
       AND NOT EXISTS (SELECT 1 FROM information_schema.user_privileges p
                        WHERE p.grantee = CONCAT('''', e.id, '''@''%''') AND p.privilege_type <> 'USAGE')
    UNION ALL
    SELECT i.name, i.kind
      FROM integration_account i JOIN mysql.user u ON u.user = i.name AND u.host = '%'
     WHERE is_account_name(i.name) = 1 AND i.name <> SUBSTRING_INDEX(CURRENT_USER(), '@', 1)
       AND NOT EXISTS (SELECT 1 FROM information_schema.user_privileges p
                        WHERE p.grantee = CONCAT('''', i.name, '''@''%''') AND p.privilege_type <> 'USAGE');
