-- One release sweep per interval for the whole newsroom, whoever asks first. Every signed-in client
-- (and copydesk release-daemon) asks take_sweep_turn every interval; the database hands the turn to
-- the first caller after due_at and moves due_at on, so the sweep's work (ending stuck sessions, which
-- reads the server's process list, and freeing lapsed leases) is done once per interval, not once
-- per client. The caller that takes the turn does the sweep in the same call: taking it never
-- prevents sweeping.
CREATE TABLE sweep_turn (
    id                    INT         NOT NULL,
    -- the next sweep is due at this server time (UTC); the first caller at or after it takes the turn
    due_at                DATETIME(6) NOT NULL,
    -- the stuck-session half of the sweep is due at this server time (UTC): a turn taken again at
    -- once to go on freeing a backlog of lapsed leases does not read the process list again
    sessions_due_at       DATETIME(6) NOT NULL,
    -- the longest interval a caller may ask for: a caller asking for more gets this, so no caller can
    -- push the next sweep further off than the house interval (the desktop client's 5 s)
    longest_interval_ms   INT         NOT NULL,
    -- who took the last turn, when, and how many turns and stuck-session sweeps have been taken
    taken_by              VARCHAR(64) NULL,
    taken_at              DATETIME(6) NULL,
    turns_taken           BIGINT      NOT NULL,
    sessions_swept        BIGINT      NOT NULL,
    CONSTRAINT pk_sweep_turn PRIMARY KEY (id),
    CONSTRAINT ck_sweep_turn_single CHECK (id = 1),
    CONSTRAINT ck_sweep_turn_interval CHECK (longest_interval_ms BETWEEN 100 AND 60000)
);

INSERT INTO sweep_turn (id, due_at, sessions_due_at, longest_interval_ms, taken_by, taken_at, turns_taken, sessions_swept)
VALUES (1, '1970-01-01 00:00:00.000000', '1970-01-01 00:00:00.000000', 5000, NULL, NULL, 0, 0);

-- the sweep every client runs, now one turn at a time; the forced sweep (release-daemon --once)
-- still calls release_expired_leases and end_stuck_sessions directly
INSERT INTO role_grant (role, privilege, object_name, columns) VALUES
    ('editor', 'EXECUTE', 'take_sweep_turn', NULL),
    -- when the sweep last ran and who ran it (the dashboard, copydesk doctor)
    ('supervisor', 'SELECT', 'sweep_turn', NULL);

-- Prepared XA transactions the sweep has listed, and since when: the sweep rolls one back once it has
-- been listed for longer than session_limit.xa_seconds. Kept here, not in each client, because the
-- sweep turn goes to a different client from one interval to the next. xid is format:gtrid:bqual with
-- the two parts as hex (an id is bytes, not text); a row not listed for a minute (or xa_seconds, if
-- longer) starts again, and is dropped.
CREATE TABLE prepared_xa (
    xid         VARCHAR(300) NOT NULL,
    first_seen  DATETIME(6)  NOT NULL,
    last_seen   DATETIME(6)  NOT NULL,
    CONSTRAINT pk_prepared_xa PRIMARY KEY (xid)
);
CREATE INDEX ix_prepared_xa_last_seen ON prepared_xa (last_seen);

INSERT INTO role_grant (role, privilege, object_name, columns) VALUES
    ('editor', 'EXECUTE', 'note_prepared_xa', NULL);
