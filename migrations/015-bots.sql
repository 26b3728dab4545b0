-- Bots (issue 15). A seat may be played by a built-in bot (src/bots) instead of a person; its
-- robot's programs are submitted by the server as each turn is dealt. A game may let a bot play a
-- missed program instead of R9's random fill. A practice game (one person against bots) sends no
-- mail and closes each turn as soon as the person's program is in.
ALTER TABLE seats ADD COLUMN bot TEXT CHECK (bot IS NULL OR bot IN ('random', 'greedy', 'strong'));
ALTER TABLE games ADD COLUMN missed_program_bot TEXT CHECK (missed_program_bot IS NULL OR missed_program_bot IN ('random', 'greedy', 'strong'));
ALTER TABLE games ADD COLUMN practice INTEGER NOT NULL DEFAULT 0;
