-- A GM who plays locks their own program before seeing any other program or result of the turn
-- (services/lock.ts; BotWars rules: "if the GM is also playing, the GM's program is completed
-- first"). Closing a turn locks it too, so every turn already closed counts as locked.
ALTER TABLE turns ADD COLUMN gm_locked_at INTEGER;
UPDATE turns SET gm_locked_at = closed_at WHERE status <> 'open';
