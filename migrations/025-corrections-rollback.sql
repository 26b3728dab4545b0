-- The GM's review (issue 12). A turn's revision counts every change a GM's tab could have missed
-- (status, result, reopened player, deadline); GM actions send the revision they saw and are
-- refused with "the turn changed meanwhile" when it moved on.
ALTER TABLE turns ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;
CREATE TRIGGER turns_revision AFTER UPDATE OF status, result_json, reopened_player_id, deadline ON turns
BEGIN
  UPDATE turns SET revision = revision + 1 WHERE id = NEW.id;
END;

-- A program the GM entered or amended on a player's behalf in the draft, with the reason. The
-- program itself is a submissions row (user_id = the GM); this says what it replaced and why.
CREATE TABLE corrections (
  id             INTEGER PRIMARY KEY,
  turn_id        INTEGER NOT NULL REFERENCES turns(id) ON DELETE CASCADE,
  player_id      TEXT NOT NULL,
  gm_user_id     INTEGER NOT NULL REFERENCES users(id),
  submission_id  INTEGER NOT NULL REFERENCES submissions(id) ON DELETE CASCADE,
  before_json    TEXT,
  after_json     TEXT NOT NULL,
  reason         TEXT NOT NULL,
  at             INTEGER NOT NULL
);
CREATE INDEX corrections_turn ON corrections(turn_id, id);

-- A published report the GM rolled back stays readable, marked withdrawn.
CREATE TABLE withdrawn_reports (
  id            INTEGER PRIMARY KEY,
  game_id       TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
  number        INTEGER NOT NULL,
  version       INTEGER NOT NULL,
  result_json   TEXT NOT NULL,
  report_text   TEXT NOT NULL,
  published_at  INTEGER NOT NULL,
  withdrawn_at  INTEGER NOT NULL,
  reason        TEXT NOT NULL,
  UNIQUE (game_id, number, version)
);

-- When each player went out (their last robot lost, or their robot left the board with them), for
-- placings (A15). Rows of a rolled-back turn are deleted with it.
CREATE TABLE players_out (
  game_id     TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
  player_id   TEXT NOT NULL,
  after_turn  INTEGER NOT NULL,
  PRIMARY KEY (game_id, player_id)
);
