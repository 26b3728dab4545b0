-- Seats that change and games that end (issue 12).
-- gone_robot: what a robot does once its player withdrew or was removed ('random': plays R9 fills
-- until a newcomer takes the seat; 'leave': leaves the board at the next deal, its player out).
-- table_talk: players may message each other privately. turn_limit / stalemate_turns: NULL = off.
ALTER TABLE games ADD COLUMN turn_limit INTEGER;
ALTER TABLE games ADD COLUMN stalemate_turns INTEGER;
ALTER TABLE games ADD COLUMN stalemate_offered_turn INTEGER;
ALTER TABLE games ADD COLUMN gone_robot TEXT NOT NULL DEFAULT 'random' CHECK (gone_robot IN ('random', 'leave', 'bot'));
ALTER TABLE games ADD COLUMN table_talk INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN end_reason TEXT;
ALTER TABLE games ADD COLUMN placings_json TEXT;

-- A seat whose player left while the game's choice was 'leave': its robot leaves at the next deal.
ALTER TABLE seats ADD COLUMN robot_leaves INTEGER NOT NULL DEFAULT 0;
