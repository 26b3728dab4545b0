-- The missed-program bot's programs planned ahead (A15; services/missed-program-plans.ts): for
-- each person's seat of an open turn, the program the game's bot would play if the seat sends
-- none, planned in the worker thread after the deal and used by the close. As secret as a
-- program: only the close reads it, and the turn's rows go when it is published. The bot decides
-- from the turn as dealt (A15), which does not change while the turn is open, so a stored row
-- stays the program the close would compute.
CREATE TABLE missed_program_fallbacks (
  turn_id      INTEGER NOT NULL REFERENCES turns(id) ON DELETE CASCADE,
  player_id    TEXT NOT NULL,
  orders_json  TEXT NOT NULL,
  PRIMARY KEY (turn_id, player_id)
);
