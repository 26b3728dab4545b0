-- Invitation mail is limited per recipient address (services/games.ts), like sign-in mail: the
-- invitations sent to an address in the last hour are counted on every invitation.
CREATE INDEX outbox_recipient ON outbox(lower(recipient), kind, created_at);
