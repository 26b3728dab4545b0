-- The reply address an inbound message was sent to, as the hash of its token (reply_tokens), or
-- NULL for mail to no known address. The rate limit counts per sender AND address: the From and the
-- envelope sender are whatever the sending machine claims, so mail claiming to be from Ann but
-- sent to Bob's address must never use up Ann's own address (inbound/handle.ts). The refusals
-- answered per seat are counted through the same column.
ALTER TABLE inbound_messages ADD COLUMN reply_token_hash TEXT;
DROP INDEX inbound_messages_sender;
CREATE INDEX inbound_messages_target ON inbound_messages(reply_token_hash, sender, received_at);
