DROP VIEW IF EXISTS managed_account;

-- The accounts Copydesk manages, with their role or kind: each person of the newsroom and each other
-- system that has an account 'name'@'%', but never the account that owns the schema, an account
-- with any right on the whole server (the server's own: root, a DBA's), or a person's name that is
-- also another system's. Read by the owner's operations only: granted to nobody.
CREATE SQL SECURITY DEFINER VIEW managed_account AS
    SELECT e.id AS name, e.role AS role
      FROM editor e JOIN mysql.user u ON u.user = e.id AND u.host = '%'
     WHERE is_account_name(e.id) = 1 AND e.id <> SUBSTRING_INDEX(CURRENT_USER(), '@', 1)
       AND NOT EXISTS (SELECT 1 FROM integration_account i WHERE i.name = e.id)
       AND NOT EXISTS (SELECT 1 FROM information_schema.user_privileges p
                        WHERE p.grantee = CONCAT('''', e.id, '''@''%''') AND p.privilege_type <> 'USAGE')
    UNION ALL
    SELECT i.name, i.kind
      FROM integration_account i JOIN mysql.user u ON u.user = i.name AND u.host = '%'
     WHERE is_account_name(i.name) = 1
       AND NOT EXISTS (SELECT 1 FROM information_schema.user_privileges p
                        WHERE p.grantee = CONCAT('''', i.name, '''@''%''') AND p.privilege_type <> 'USAGE');
