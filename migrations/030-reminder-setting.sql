-- How long before the deadline the reminder goes (GM setting; 12 hours unless chosen), and
-- whether a reply carrying a player's token is accepted from an address other than theirs.
ALTER TABLE games ADD COLUMN reminder_before_ms INTEGER NOT NULL DEFAULT 43200000;
ALTER TABLE games ADD COLUMN reply_from_any INTEGER NOT NULL DEFAULT 0;
