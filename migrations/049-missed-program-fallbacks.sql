-- The missed-program bot's programs planned ahead (A15; services/missed-program-plans.ts): for
-- each person's seat of an open turn, the program the game's bot would play if the seat sends
-- none, planned in the worker thread after the deal and used by the close. As secret as a
-- program: only the close reads it, and the turn's rows go when it is published. decision_key is
-- a hash of what the bot decided from (the bot, the seat's view): a fallback whose view changed
-- since (another player's standing choice, R28, R31) is not used, and the close decides again.
CREATE TABLE missed_program_fallbacks (
  turn_id      INTEGER NOT NULL REFERENCES turns(id) ON DELETE CASCADE,
  player_id    TEXT NOT NULL,
  decision_key TEXT NOT NULL,
  orders_json  TEXT NOT NULL,
  PRIMARY KEY (turn_id, player_id)
);
