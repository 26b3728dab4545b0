-- Mail worth opening (issue 14). A queued message may carry an HTML part (else one is made from
-- its text when it is sent), extra headers (Reply-To with the player's reply address), and the
-- board picture to attach (rendered when the message is sent, not inside the transaction that
-- queues it).
ALTER TABLE outbox ADD COLUMN html TEXT;
ALTER TABLE outbox ADD COLUMN headers_json TEXT;
ALTER TABLE outbox ADD COLUMN picture_json TEXT;

-- Keys the server makes once, for values it must recognise later without storing each one
-- (the one-click unsubscribe links are an HMAC of the address under the 'mail' key).
CREATE TABLE server_keys (
  name  TEXT PRIMARY KEY,
  key   BLOB NOT NULL
);
INSERT INTO server_keys (name, key) VALUES ('mail', randomblob(32));
