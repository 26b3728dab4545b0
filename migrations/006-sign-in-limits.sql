-- Sign-in mail is limited per recipient address (services/auth.ts): the count of links made for
-- an address in the last hour is read on every request for one.
CREATE INDEX login_tokens_email ON login_tokens(email, created_at);
