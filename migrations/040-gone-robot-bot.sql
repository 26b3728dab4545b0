-- A robot whose player is gone may be played by a built-in bot (issues 12 and 15): with
-- gone_robot = 'bot', this is the bot's level. NULL for the other choices.
ALTER TABLE games ADD COLUMN gone_robot_bot TEXT CHECK (gone_robot_bot IS NULL OR gone_robot_bot IN ('random', 'greedy', 'strong'));
