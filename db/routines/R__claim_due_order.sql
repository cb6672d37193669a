DROP FUNCTION IF EXISTS claim_due_order;

DELIMITER $$

-- The due time as claims order it (article.due_order): its minute, so that articles due in the same
-- minute are equally urgent and the claim's next key (work that came back, then arrival) decides
-- among them; a newsroom's deadlines are minutes (18:00, 21:30), and BLOCKING and OPTIMISTIC spread
-- their claimers only over articles of one urgency (with a due time to the millisecond on every
-- article each urgency held one article, and every claimer queued at the head). No due time sorts
-- after every due time (an index puts NULL first). due_at keeps the exact time: what is shown, and
-- what is late. One place for import_articles, correct_import_row and set_due_time. Internal.
CREATE FUNCTION claim_due_order(p_due DATETIME(3)) RETURNS DATETIME(3)
    DETERMINISTIC NO SQL SQL SECURITY DEFINER
    RETURN COALESCE(TIMESTAMPADD(MICROSECOND, -(SECOND(p_due) * 1000000 + MICROSECOND(p_due)), p_due),
                    '9999-12-31 00:00:00.000')$$

DELIMITER ;
