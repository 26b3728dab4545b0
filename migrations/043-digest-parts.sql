-- The held mails a queued digest was made of, kept until it has gone (or been given up): a
-- rollback that withdraws one of them (migration 042) makes the digest again without it, or
-- withdraws the digest when nothing is left in it (mail/withdraw.ts). NULL while the mail is
-- still held for the next digest. Deleting the digest (sent and pruned, withdrawn) deletes them.
ALTER TABLE mail_digest ADD COLUMN digest_id INTEGER REFERENCES outbox(id) ON DELETE CASCADE;
CREATE INDEX mail_digest_parts ON mail_digest(digest_id) WHERE digest_id IS NOT NULL;
