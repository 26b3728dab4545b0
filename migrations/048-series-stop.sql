-- A series can be stopped by its GM (services/series.ts stopSeries): status 'stopped', and what
-- the GM asked for. stop_when is 'after-game' (the game in progress plays out; the clockwork stops
-- the series when it ends, and until then it still counts as running) or 'now' (that game was
-- abandoned and the series stopped at once); stop_reason is the GM's reason; stop_asked_at when.
-- A CHECK cannot be changed in place, so `series` is rebuilt. series_games cascades from it and
-- foreign keys stay on in a migration (migrations/README.md): its rows are kept aside and put back.
CREATE TEMP TABLE series_games_kept AS SELECT * FROM series_games;

CREATE TABLE series_new (
  id            TEXT PRIMARY KEY,
  name          TEXT NOT NULL,
  gm_user_id    INTEGER NOT NULL REFERENCES users(id),
  boards_json   TEXT NOT NULL,
  seats_json    TEXT NOT NULL,
  games_total   INTEGER NOT NULL CHECK (games_total BETWEEN 1 AND 500),
  status        TEXT NOT NULL CHECK (status IN ('running', 'finished', 'stopped')),
  created_at    INTEGER NOT NULL,
  ended_at      INTEGER,
  stop_when     TEXT CHECK (stop_when IN ('after-game', 'now')),
  stop_reason   TEXT,
  stop_asked_at INTEGER
);
INSERT INTO series_new (id, name, gm_user_id, boards_json, seats_json, games_total, status, created_at, ended_at)
  SELECT id, name, gm_user_id, boards_json, seats_json, games_total, status, created_at, ended_at FROM series;
DROP TABLE series;
ALTER TABLE series_new RENAME TO series;

INSERT INTO series_games (series_id, position, game_id, seats_json)
  SELECT series_id, position, game_id, seats_json FROM series_games_kept;
DROP TABLE series_games_kept;
