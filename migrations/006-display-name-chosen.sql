-- Whether a person has chosen their display name (issue 13): until then they are known by their
-- email address's local part ("gm"), and the pages ask them, once, for the name others see.
ALTER TABLE users ADD COLUMN name_chosen INTEGER NOT NULL DEFAULT 0;
