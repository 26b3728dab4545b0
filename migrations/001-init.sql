-- People, sign-in and sessions. Secrets (sign-in links, sessions, API tokens) are stored only as
-- SHA-256 hashes, so a copy of the database does not let anyone sign in.
CREATE TABLE users (
  id          INTEGER PRIMARY KEY,
  email       TEXT NOT NULL UNIQUE COLLATE NOCASE,
  name        TEXT NOT NULL,
  created_at  INTEGER NOT NULL
);

CREATE TABLE login_tokens (
  token_hash  TEXT PRIMARY KEY,
  email       TEXT NOT NULL,
  created_at  INTEGER NOT NULL,
  expires_at  INTEGER NOT NULL,
  used_at     INTEGER
);

CREATE TABLE sessions (
  id_hash     TEXT PRIMARY KEY,
  user_id     INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at  INTEGER NOT NULL,
  expires_at  INTEGER NOT NULL
);

-- Games. state_json is the public state of the game before the current turn's deal (no hands);
-- the dealt state (with every hand) lives on the turn and is never sent whole to anyone.
CREATE TABLE games (
  id                 TEXT PRIMARY KEY,
  name               TEXT NOT NULL,
  board_name         TEXT NOT NULL,
  board_json         TEXT NOT NULL,
  gm_user_id         INTEGER NOT NULL REFERENCES users(id),
  seat_count         INTEGER NOT NULL CHECK (seat_count BETWEEN 2 AND 8),
  turn_length_ms     INTEGER NOT NULL,
  review_window_ms   INTEGER NOT NULL,
  close_early        INTEGER NOT NULL,
  gm_plays           INTEGER NOT NULL,
  seed               INTEGER NOT NULL,
  public_token       TEXT NOT NULL UNIQUE,
  status             TEXT NOT NULL CHECK (status IN ('setup', 'running', 'paused', 'finished', 'abandoned')),
  paused_at          INTEGER,
  state_json         TEXT,
  winners_json       TEXT,
  created_at         INTEGER NOT NULL,
  started_at         INTEGER,
  ended_at           INTEGER
);

-- One row per seat; player_id ("P1".."P8") is the engine's id for the seat, so a robot passes to
-- a newcomer when the GM replaces a player.
CREATE TABLE seats (
  id                 INTEGER PRIMARY KEY,
  game_id            TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
  seat_no            INTEGER NOT NULL,
  player_id          TEXT NOT NULL,
  user_id            INTEGER REFERENCES users(id),
  name               TEXT,
  colour             TEXT,
  invite_email       TEXT,
  invite_token_hash  TEXT UNIQUE,
  joined_at          INTEGER,
  UNIQUE (game_id, seat_no),
  UNIQUE (game_id, player_id)
);
CREATE INDEX seats_user ON seats(user_id);

CREATE TABLE api_tokens (
  id          INTEGER PRIMARY KEY,
  token_hash  TEXT NOT NULL UNIQUE,
  user_id     INTEGER NOT NULL REFERENCES users(id),
  game_id     TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
  created_at  INTEGER NOT NULL,
  revoked_at  INTEGER
);

-- A turn is 'open' (taking programs), 'draft' (closed and resolved, under GM review) or
-- 'published'. The UPDATE from 'open' to 'draft' is what makes closing happen exactly once.
CREATE TABLE turns (
  id                   INTEGER PRIMARY KEY,
  game_id              TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
  number               INTEGER NOT NULL,
  status               TEXT NOT NULL CHECK (status IN ('open', 'draft', 'published')),
  dealt_state_json     TEXT NOT NULL,
  opened_at            INTEGER NOT NULL,
  deadline             INTEGER NOT NULL,
  reminder_queued      INTEGER NOT NULL DEFAULT 0,
  closed_at            INTEGER,
  review_until         INTEGER,
  reopened_player_id   TEXT,
  result_json          TEXT,
  next_state_json      TEXT,
  published_at         INTEGER,
  UNIQUE (game_id, number)
);
CREATE INDEX turns_status ON turns(status);

-- Every version of every program, with its time; the latest version per (turn, player) counts.
CREATE TABLE submissions (
  id              INTEGER PRIMARY KEY,
  turn_id         INTEGER NOT NULL REFERENCES turns(id) ON DELETE CASCADE,
  player_id       TEXT NOT NULL,
  user_id         INTEGER REFERENCES users(id),
  version         INTEGER NOT NULL,
  cards_json      TEXT NOT NULL,
  reboot_next     INTEGER NOT NULL,
  sacrifice_at    INTEGER NOT NULL,
  double_wrench   TEXT NOT NULL,
  facing          TEXT,
  submitted_at    INTEGER NOT NULL,
  UNIQUE (turn_id, player_id, version)
);

-- The game's history: every GM action with its time and reason.
CREATE TABLE gm_actions (
  id           INTEGER PRIMARY KEY,
  game_id      TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
  at           INTEGER NOT NULL,
  action       TEXT NOT NULL,
  reason       TEXT NOT NULL,
  detail_json  TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX gm_actions_game ON gm_actions(game_id, id);

-- Mail waits here, written in the same transaction as the change that causes it; the worker
-- claims a row ('sending' with a lease), sends it, and marks it 'sent' once the server accepted it.
CREATE TABLE outbox (
  id               INTEGER PRIMARY KEY,
  kind             TEXT NOT NULL,
  game_id          TEXT,
  recipient        TEXT NOT NULL,
  subject          TEXT NOT NULL,
  body             TEXT NOT NULL,
  status           TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sending', 'sent')),
  attempts         INTEGER NOT NULL DEFAULT 0,
  next_attempt_at  INTEGER NOT NULL,
  lease_until      INTEGER,
  last_error       TEXT,
  created_at       INTEGER NOT NULL,
  sent_at          INTEGER
);
CREATE INDEX outbox_due ON outbox(status, next_attempt_at);
