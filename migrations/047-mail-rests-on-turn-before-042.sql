-- Mail queued or held for a digest by a release before migration 042 has no rests_on_turn, so a
-- rollback after the upgrade did not withdraw it: the players were mailed the hand of a turn that
-- no longer exists, with a reply address that no longer works. Mail still unsent at the upgrade
-- (the mail server was down; a digest not yet due) is given the turn it stands on as the code of
-- 042 would have, worked out from when it was queued: the mail of a turn being played (hand,
-- reminder, moved deadline, reopened, correction, draft ready) stands on the turn before the newest
-- one dealt by then; results, the game's end and the stalemate notice on the newest published by
-- then. A turn dealt again or rolled back since gives an earlier turn, so such mail goes with a
-- rollback of that earlier turn: it was untrue already. Mail sent is history and stays as it is.
UPDATE outbox SET rests_on_turn = (
  SELECT max(turns.number) - 1 FROM turns WHERE turns.game_id = outbox.game_id AND turns.opened_at <= outbox.created_at)
WHERE rests_on_turn IS NULL AND game_id IS NOT NULL AND status IN ('pending', 'sending')
  AND kind IN ('hand', 'reminder', 'deadline', 'reopened', 'correction', 'draft-ready');
UPDATE outbox SET rests_on_turn = (
  SELECT max(turns.number) FROM turns WHERE turns.game_id = outbox.game_id AND turns.published_at <= outbox.created_at)
WHERE rests_on_turn IS NULL AND game_id IS NOT NULL AND status IN ('pending', 'sending')
  AND kind IN ('results', 'game-over', 'stalemate');

UPDATE mail_digest SET rests_on_turn = (
  SELECT max(turns.number) - 1 FROM turns WHERE turns.game_id = mail_digest.game_id AND turns.opened_at <= mail_digest.created_at)
WHERE rests_on_turn IS NULL AND game_id IS NOT NULL
  AND kind IN ('hand', 'reminder', 'deadline', 'reopened', 'correction', 'draft-ready');
UPDATE mail_digest SET rests_on_turn = (
  SELECT max(turns.number) FROM turns WHERE turns.game_id = mail_digest.game_id AND turns.published_at <= mail_digest.created_at)
WHERE rests_on_turn IS NULL AND game_id IS NOT NULL
  AND kind IN ('results', 'game-over', 'stalemate');
