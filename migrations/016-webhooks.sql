-- The bot protocol (issue 15): a player registers a webhook for their seat; when a hand is dealt,
-- a delivery row is queued in the transaction that deals it, and a worker POSTs the player's own
-- view, signed with the webhook's secret, retrying with backoff like the mail outbox. The secret
-- is kept as it is (not hashed): the server needs it to sign.
CREATE TABLE webhooks (
  game_id     TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
  player_id   TEXT NOT NULL,
  user_id     INTEGER NOT NULL REFERENCES users(id),
  url         TEXT NOT NULL,
  secret      TEXT NOT NULL,
  created_at  INTEGER NOT NULL,
  PRIMARY KEY (game_id, player_id)
);

CREATE TABLE webhook_deliveries (
  id               INTEGER PRIMARY KEY,
  game_id          TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
  player_id        TEXT NOT NULL,
  turn_number      INTEGER NOT NULL,
  status           TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sending', 'sent', 'failed')),
  attempts         INTEGER NOT NULL DEFAULT 0,
  next_attempt_at  INTEGER NOT NULL,
  lease_until      INTEGER,
  last_error       TEXT,
  created_at       INTEGER NOT NULL,
  sent_at          INTEGER
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries(status, next_attempt_at);
CREATE INDEX webhook_deliveries_seat ON webhook_deliveries(game_id, player_id, id);
