-- The program lock of a GM who plays, kept through a rollback (services/gm-kept-lock.ts): the turn
-- after the one rolled back is deleted and dealt again on publication, and a GM who had locked it
-- (or seen its draft) has seen the others' programs for it. Kept here from the rollback to that
-- deal, with the GM's latest program for it (the submissions row's fields as JSON; NULL when they
-- had none), which the new deal takes back when it is still a program of the new hand.
CREATE TABLE gm_kept_locks (
  game_id      TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
  turn_number  INTEGER NOT NULL,
  program_json TEXT,
  PRIMARY KEY (game_id, turn_number)
);
