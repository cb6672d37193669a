-- prepared_xa, one row per XA id and account that noted it, so that what one account notes is
-- bounded and cannot push out or restart what another noted: note_prepared_xa keeps at most 200
-- rows per account (dropping that account's longest-unseen first) and forgets unseen rows in steps
-- of 100 per call, so no call pays for a flood of made-up ids (an editor wrote 160,000 rows in 20 s
-- into the table of V19, and the next honest call spent 1.8 s deleting them in one statement). An id
-- is due when the earliest of its rows is older than xa_seconds: the time still counts from the
-- first listing by any client. The rows of V19 are dropped with the table: at worst a prepared XA
-- transaction is rolled back xa_seconds later than it would have been.
DROP TABLE prepared_xa;

CREATE TABLE prepared_xa (
    xid         VARCHAR(300) NOT NULL,
    -- the account whose call listed it
    noted_by    VARCHAR(64)  NOT NULL,
    first_seen  DATETIME(6)  NOT NULL,
    last_seen   DATETIME(6)  NOT NULL,
    CONSTRAINT pk_prepared_xa PRIMARY KEY (xid, noted_by)
);
CREATE INDEX ix_prepared_xa_last_seen ON prepared_xa (last_seen);
CREATE INDEX ix_prepared_xa_noted_by ON prepared_xa (noted_by, last_seen);
