-- IMAP polling: the highest UID handled per mailbox (and the mailbox's UIDVALIDITY, which
-- resets the count when the server renumbers), advanced in the transaction that handles the
-- message, so a message is handled exactly once across restarts.
CREATE TABLE imap_state (
  mailbox       TEXT PRIMARY KEY,
  uid_validity  TEXT NOT NULL,
  last_uid      INTEGER NOT NULL
);
