-- The last published turn a queued mail stands on, where a rollback would make it untrue: the
-- results of turn n and the hand, reminder and moved deadline of turn n + 1 stand on turn n. A
-- rollback of turn n withdraws what of it is still unsent (services/rollback.ts), in the outbox and
-- in the held digests; NULL for every other mail (messages, invitations, seats), which it keeps.
ALTER TABLE outbox ADD COLUMN rests_on_turn INTEGER;
ALTER TABLE mail_digest ADD COLUMN rests_on_turn INTEGER;
CREATE INDEX outbox_rests_on_turn ON outbox(game_id, rests_on_turn) WHERE rests_on_turn IS NOT NULL AND status IN ('pending', 'sending');
