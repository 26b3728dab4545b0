-- Series (issue 15): a GM's round robin of games over chosen boards with a fixed set of seats
-- (bots, or the GM), played one after another by the clockwork until the last game ends.
-- seats_json lists the entrants ("greedy", "strong", "random", or "gm"); position counts the
-- games, and the entrants' seat order rotates by one each game.
CREATE TABLE series (
  id            TEXT PRIMARY KEY,
  name          TEXT NOT NULL,
  gm_user_id    INTEGER NOT NULL REFERENCES users(id),
  boards_json   TEXT NOT NULL,
  seats_json    TEXT NOT NULL,
  games_total   INTEGER NOT NULL CHECK (games_total BETWEEN 1 AND 500),
  status        TEXT NOT NULL CHECK (status IN ('running', 'finished')),
  created_at    INTEGER NOT NULL,
  ended_at      INTEGER
);

CREATE TABLE series_games (
  series_id   TEXT NOT NULL REFERENCES series(id) ON DELETE CASCADE,
  position    INTEGER NOT NULL,
  game_id     TEXT NOT NULL UNIQUE REFERENCES games(id) ON DELETE CASCADE,
  seats_json  TEXT NOT NULL,
  PRIMARY KEY (series_id, position)
);
