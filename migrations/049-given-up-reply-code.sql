-- What of a mail given up for good (mail/worker.ts) may be told to the GM of every game a digest
-- covered: how it was given up ('refused' for good, or 'expired' after days of failures) and the
-- mail server's reply code with its enhanced status (e.g. '550 5.7.1'), never the server's own
-- text. That text (last_error) may quote the message or its recipient, which a digest of several
-- games shares with other GMs: it stays for the operator (the log and this row) alone.
ALTER TABLE outbox ADD COLUMN given_up_as TEXT CHECK (given_up_as IN ('refused', 'expired'));
ALTER TABLE outbox ADD COLUMN reply_code TEXT;
