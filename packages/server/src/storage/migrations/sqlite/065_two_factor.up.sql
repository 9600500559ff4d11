-- Two-factor sign-in (accounts/two-factor.ts). One TOTP secret per account, sealed with AES-256-GCM
-- under a key that is not in this table (two-factor-secrets.ts); confirmed_at is null while the
-- account is enrolling. last_step is the time step of the last code accepted: a code of that step or
-- an earlier one is refused, so a code works once.
CREATE TABLE account_two_factor (
  account_id TEXT PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
  sealed_secret TEXT NOT NULL,
  confirmed_at INTEGER,
  last_step INTEGER NOT NULL,
  created_at INTEGER NOT NULL
);

-- Ten single-use recovery codes per account, as SHA-256 digests (80 random bits each).
CREATE TABLE recovery_codes (
  account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  digest TEXT NOT NULL,
  used_at INTEGER,
  PRIMARY KEY (account_id, digest)
);

-- A sign-in whose password was right and whose code is still to come: the browser holds the token,
-- only its digest is here. Expired ones go with the expired sessions.
CREATE TABLE two_factor_challenges (
  id_digest TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  next TEXT NOT NULL,
  expires_at INTEGER NOT NULL
);
CREATE INDEX two_factor_challenges_expires_at ON two_factor_challenges (expires_at);

-- Projects whose owners require two-factor sign-in of every member.
CREATE TABLE project_two_factor (
  project_id TEXT PRIMARY KEY REFERENCES projects (id) ON DELETE CASCADE,
  required_at INTEGER NOT NULL
);
