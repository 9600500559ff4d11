-- Password resets by a mailed single-use link (accounts/password-reset.ts): only the SHA-256 of the
-- link's token is stored; a link works once (used_at), until expires_at (30 minutes after it was made).
CREATE TABLE password_resets (
  token_digest TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at INTEGER NULL
);
CREATE INDEX password_resets_account_id ON password_resets (account_id);
CREATE INDEX password_resets_expires_at ON password_resets (expires_at);
