-- The forecast of missed deadlines from the desk's own pace, and the deadline_at_risk event the
-- sweep tells (docs/deadlines.md, "The forecast"). Every time is the server's clock in UTC. Like
-- every table of the schema, the new one names no character set: it takes the database's, which the
-- owner's migration makes utf8mb4 first (DatabaseCharacterSet; docs/servers.md), so its desk_id
-- compares with desk.id in one collation.

-- The desk's pace: the decisions of the last hour, a range of this index (however long the
-- history), each joined to its article by primary key for the desk. An in-place index build on
-- both servers: decisions go on being written while it is built.
CREATE INDEX ix_decision_time ON decision (decided_at);

INSERT INTO role_grant (role, privilege, object_name, columns) VALUES
    -- the Deadlines tab and copydesk due forecast: the forecast names every article due and who holds it
    ('supervisor', 'EXECUTE', 'deadline_forecast', NULL);

-- When the sweep next forecasts each desk's deadlines (deadline_at_risk): at most once a minute per
-- desk, taken with a compare-and-set on due_at as the sweep's own turn is, so however many clients
-- sweep, one of them forecasts a desk in a given minute. A table of its own, not a column of desk:
-- an import holds a shared lock on its desk's row until it commits (the articles' foreign key), and
-- the sweep's update of that row would wait for the whole import. A row appears the first time the
-- sweep forecasts its desk; no foreign key, for the same reason.
CREATE TABLE deadline_forecast_turn (
    desk_id VARCHAR(32) NOT NULL,
    due_at  DATETIME(6) NOT NULL,
    CONSTRAINT pk_deadline_forecast_turn PRIMARY KEY (desk_id)
);
