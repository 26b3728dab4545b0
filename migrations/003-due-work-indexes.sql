-- The partial indexes of 002 were not chosen by SQLite's planner (it preferred turns_status and
-- read every open turn's row, ~70 ms a tick on 10,000 games); equality-plus-range indexes are.
DROP INDEX turns_open_deadline;
DROP INDEX turns_draft_review;
DROP INDEX turns_open_ready;
CREATE INDEX turns_status_deadline ON turns(status, deadline);
CREATE INDEX turns_status_review ON turns(status, review_until);
CREATE INDEX turns_status_ready ON turns(status, programs_in);
