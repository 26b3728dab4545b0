-- The clockwork selects only what is due instead of reading every open turn (docs/performance.md,
-- problem 3). programs_in is set to 1 in the submitting transaction once every robot that must
-- play the turn has a program in (or at the deal, when none must), so "close early" needs no
-- parsing of dealt states on each tick.
ALTER TABLE turns ADD COLUMN programs_in INTEGER NOT NULL DEFAULT 0;

-- Open turns already in the file: the same rule as allProgramsIn (a robot must submit unless it
-- is destroyed, off the board or rebooting), computed once here.
UPDATE turns SET programs_in = 1
WHERE status = 'open' AND NOT EXISTS (
  SELECT 1 FROM json_each(turns.dealt_state_json, '$.robots') AS r
  WHERE json_extract(r.value, '$.mode') <> 'destroyed'
    AND json_extract(r.value, '$.at') IS NOT NULL
    AND NOT json_extract(r.value, '$.rebooting')
    AND json_extract(r.value, '$.player') NOT IN (SELECT player_id FROM submissions WHERE submissions.turn_id = turns.id)
);

-- Due candidates by time, per status; and the (few) open turns with every program in.
CREATE INDEX turns_open_deadline ON turns(deadline) WHERE status = 'open';
CREATE INDEX turns_draft_review ON turns(review_until) WHERE status = 'draft';
CREATE INDEX turns_open_ready ON turns(programs_in) WHERE status = 'open' AND programs_in = 1;
