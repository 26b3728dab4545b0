-- Programs by reply. Each turn mail names a reply address holding a token for one player and
-- one turn (each mail its own token: the turn mail's and the reminder's both stay valid); only its
-- SHA-256 hash is kept here.
CREATE TABLE reply_tokens (
  token_hash  TEXT PRIMARY KEY,
  turn_id     INTEGER NOT NULL REFERENCES turns(id) ON DELETE CASCADE,
  player_id   TEXT NOT NULL,
  created_at  INTEGER NOT NULL
);
CREATE INDEX reply_tokens_turn ON reply_tokens(turn_id);

-- Every inbound message handled, whatever the outcome: a message seen again (same Message-ID,
-- or same body when it has none) is not handled twice, and senders are rate-limited from here.
CREATE TABLE inbound_messages (
  id           INTEGER PRIMARY KEY,
  message_key  TEXT NOT NULL UNIQUE,
  sender       TEXT NOT NULL COLLATE NOCASE,
  outcome      TEXT NOT NULL,
  received_at  INTEGER NOT NULL
);
CREATE INDEX inbound_messages_sender ON inbound_messages(sender, received_at);
