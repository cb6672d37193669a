-- How many clients ask for the newsroom's sweep turn, so that they can ask less often the more of
-- them there are. Every signed-in client calls take_sweep_turn; with a few clients each calls every
-- interval, but a newsroom of a thousand needs only a score of calls per interval between them for
-- someone to take each turn soon after it is due, and to look at the prepared XA transactions. The
-- routine notes each caller's account here, the turn's taker counts them once per interval into
-- sweep_turn.callers, and every call answers how long the caller should wait before its next one.
-- One row per account: an account calling from many sessions, or in a loop, counts once.
CREATE TABLE sweep_caller (
    account       VARCHAR(64)  NOT NULL,
    -- the account's last take_sweep_turn call, server time (UTC)
    last_call_at  DATETIME(6)  NOT NULL,
    CONSTRAINT pk_sweep_caller PRIMARY KEY (account)
);

-- the accounts that called take_sweep_turn lately, as the last turn's taker counted them
ALTER TABLE sweep_turn ADD COLUMN callers INT NOT NULL DEFAULT 0;
