-- The GM's setting for the planning preview on "my turn" (issue 13): 1 = players see where their
-- program would take their robot, computed in their browser; 0 = the form shows only the board.
ALTER TABLE games ADD COLUMN path_preview INTEGER NOT NULL DEFAULT 1;
