-- What of each game a digest given up for good carried (mail/worker.ts): a digest of several
-- games is stored with no game, and its parts (043) go when it is given up, so without this no
-- GM would learn that a player of theirs did not get their turn mail. Kept when the digest is
-- given up, one row per part about a game, with the part's own subject and queue time: each
-- game's console lists its own rows and nothing of the other games in the digest. No body is
-- kept: the hand and reply address it carried stay in the digest's row alone.
CREATE TABLE undelivered_digest_parts (
  digest_id   INTEGER NOT NULL REFERENCES outbox(id) ON DELETE CASCADE,
  game_id     TEXT NOT NULL,
  subject     TEXT NOT NULL,
  created_at  INTEGER NOT NULL
);
CREATE INDEX undelivered_digest_parts_game ON undelivered_digest_parts(game_id, digest_id);
CREATE INDEX undelivered_digest_parts_digest ON undelivered_digest_parts(digest_id);
