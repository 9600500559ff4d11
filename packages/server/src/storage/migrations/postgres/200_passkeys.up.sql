-- Passkeys (WebAuthn credentials, accounts/passkeys.ts): the credential's id and public key (COSE,
-- base64url) as the authenticator gave them at registration, its signature counter, its transports
-- (comma-separated, a hint for the browser) and the name its owner gave it.
CREATE TABLE passkeys (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  public_key TEXT NOT NULL,
  counter BIGINT NOT NULL,
  transports TEXT NOT NULL,
  name TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  last_used_at BIGINT
);
CREATE INDEX passkeys_account_id ON passkeys (account_id);

-- A WebAuthn challenge handed to a browser and not yet answered: single-use (taken by a DELETE),
-- 5 minutes, and a few per binding (the session, the sign-in's code step, or the sign-in form's
-- cookie), the oldest going first. Expired ones go with the expired sessions.
CREATE TABLE passkey_challenges (
  challenge TEXT PRIMARY KEY,
  purpose TEXT NOT NULL,
  binding TEXT NOT NULL,
  account_id TEXT REFERENCES accounts (id) ON DELETE CASCADE,
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL
);
CREATE INDEX passkey_challenges_binding ON passkey_challenges (binding, created_at);
CREATE INDEX passkey_challenges_expires_at ON passkey_challenges (expires_at);
