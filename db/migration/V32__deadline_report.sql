-- How the desks did, per day (docs/deadlines.md, "How the desk did"): the routine deadline_report
-- reads the decisions of a span of days (a range of ix_decision_time, V30) and is granted here.

INSERT INTO role_grant (role, privilege, object_name, columns) VALUES
    -- Queue health's "How the desk did" and copydesk due report: a desk's record, for supervisors
    ('supervisor', 'EXECUTE', 'deadline_report', NULL);
