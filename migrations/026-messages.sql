-- Questions and press (issue 12): a public thread per game, private threads between the GM and a
-- player (and between players when the game allows it). to_user_id NULL = public. A hidden message
-- stays, with who hid it and why, and is shown to nobody but the GM.
CREATE TABLE messages (
  id             INTEGER PRIMARY KEY,
  game_id        TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
  from_user_id   INTEGER NOT NULL REFERENCES users(id),
  to_user_id     INTEGER REFERENCES users(id),
  body           TEXT NOT NULL,
  at             INTEGER NOT NULL,
  hidden_at      INTEGER,
  hidden_reason  TEXT
);
CREATE INDEX messages_game ON messages(game_id, id);

-- One row per message and reader still to be mailed; the clockwork sends each reader at most one
-- mail per 15 minutes with everything pending (message_mail_sent keeps when the last one went).
CREATE TABLE message_mail_pending (
  message_id  INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
  user_id     INTEGER NOT NULL REFERENCES users(id),
  PRIMARY KEY (user_id, message_id)
);
CREATE TABLE message_mail_sent (
  user_id  INTEGER PRIMARY KEY REFERENCES users(id),
  at       INTEGER NOT NULL
);
