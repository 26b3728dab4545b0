-- Mail that cannot be delivered stops being retried: 'failed' is for a message the mail server
-- refused for good (a 5xx answer to its recipient or content) or that could not be sent for
-- three days. The GM console lists a game's failed mail. SQLite cannot change a CHECK
-- constraint in place, so the table is rebuilt (nothing refers to it).
CREATE TABLE outbox_new (
  id               INTEGER PRIMARY KEY,
  kind             TEXT NOT NULL,
  game_id          TEXT,
  recipient        TEXT NOT NULL,
  subject          TEXT NOT NULL,
  body             TEXT NOT NULL,
  status           TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sending', 'sent', 'failed')),
  attempts         INTEGER NOT NULL DEFAULT 0,
  next_attempt_at  INTEGER NOT NULL,
  lease_until      INTEGER,
  last_error       TEXT,
  created_at       INTEGER NOT NULL,
  sent_at          INTEGER
);
INSERT INTO outbox_new SELECT id, kind, game_id, recipient, subject, body, status, attempts, next_attempt_at,
  lease_until, last_error, created_at, sent_at FROM outbox;
DROP TABLE outbox;
ALTER TABLE outbox_new RENAME TO outbox;
CREATE INDEX outbox_due ON outbox(status, next_attempt_at);
CREATE INDEX outbox_failed ON outbox(game_id, id) WHERE status = 'failed';
