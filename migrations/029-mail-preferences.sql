-- Per-person mail preferences, by address (an invited person may have no account yet):
-- 'every' mail as it happens, a 'digest' once a day, or 'none' (sign-in mails still go).
CREATE TABLE mail_preferences (
  email           TEXT PRIMARY KEY COLLATE NOCASE,
  mode            TEXT NOT NULL CHECK (mode IN ('every', 'digest', 'none')),
  updated_at      INTEGER NOT NULL,
  last_digest_at  INTEGER
);

-- Mail held for someone who wants a daily digest; the clockwork folds it into one message.
CREATE TABLE mail_digest (
  id          INTEGER PRIMARY KEY,
  recipient   TEXT NOT NULL COLLATE NOCASE,
  kind        TEXT NOT NULL,
  game_id     TEXT,
  subject     TEXT NOT NULL,
  body        TEXT NOT NULL,
  created_at  INTEGER NOT NULL
);
CREATE INDEX mail_digest_recipient ON mail_digest(recipient, id);
