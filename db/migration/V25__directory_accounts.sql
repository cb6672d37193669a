-- Directory sign-in: an admin may make a person's account one the database server identifies
-- through PAM (MariaDB's auth_pam, PAM service `copydesk`, which asks the newsroom's directory), so
-- the directory's password is the one they type and Copydesk stores none (create_directory_account).
INSERT INTO role_grant (role, privilege, object_name, columns) VALUES
    ('admin', 'EXECUTE', 'create_directory_account', NULL);
