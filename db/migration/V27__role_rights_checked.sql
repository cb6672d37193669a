-- The rights of each role as role_rights last checked them, with what they were checked against
-- (role_grant's rows and the schema's routines): creating an account checked every row of
-- role_grant against information_schema again (about 90 ms of 250), and now does so only after
-- role_grant or a routine changed. Written by role_rights alone; granted to nobody.
CREATE TABLE role_rights_checked (
    role        VARCHAR(16)  NOT NULL,
    fingerprint VARCHAR(200) NOT NULL,
    rights      LONGTEXT     NOT NULL,
    checked_at  DATETIME(6)  NOT NULL,
    CONSTRAINT pk_role_rights_checked PRIMARY KEY (role)
);
