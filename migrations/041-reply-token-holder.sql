-- A reply token belongs to the person it was mailed to, not to the seat: when the GM gives the
-- seat to someone else, the one who left must not program the newcomer's robot by replying to an
-- old turn mail (inbound/tokens.ts). NULL for tokens issued before this migration: those are
-- judged by when the seat's player sat down.
ALTER TABLE reply_tokens ADD COLUMN user_id INTEGER REFERENCES users(id);
