-- ix_lease_event_actor goes. No query reads it (the audit log's editor filter is "actor, old owner
-- or new owner", an OR no single index serves, so it reads lease_event by id either way), and every
-- history row (three per claimed-and-decided article) paid for one more index entry.
-- ix_lease_event_time stays: the history's purge by age and the dashboard's expiry counts read it.

DROP INDEX ix_lease_event_actor ON lease_event;
