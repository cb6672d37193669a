-- Claims compare due times to the minute (claim_due_order, docs/deadlines.md "Claim order"): an
-- article's due_order already written to the millisecond by an earlier build is brought to its
-- minute, so that it sorts with the articles due in the same minute. due_at keeps the exact time;
-- a move to the front's due_order (the earliest of its priority) is brought to its minute too.
-- The expression is claim_due_order's: the versioned migrations run before the routines exist.
UPDATE article
   SET due_order = TIMESTAMPADD(MICROSECOND, -(SECOND(due_order) * 1000000 + MICROSECOND(due_order)), due_order)
 WHERE due_order < '9999-12-31 00:00:00.000'
   AND (SECOND(due_order) <> 0 OR MICROSECOND(due_order) <> 0);
