-- Sign-in that attackers cannot turn against the owner (accounts/sign-in-throttle.ts, device-cookies.ts).
-- Secrets the service makes for itself on first use (the device cookies' HMAC key), shared by every
-- instance: the first instance to need one inserts it, every other reads it.
CREATE TABLE server_secrets (
  name TEXT PRIMARY KEY,
  value TEXT NOT NULL,
  created_at BIGINT NOT NULL
);

-- Failed sign-ins per subject (an email's unknown devices, a client address, one device cookie), each
-- subject a digest: how many in a row, the last one, and until when the subject must wait.
CREATE TABLE sign_in_throttles (
  subject TEXT PRIMARY KEY,
  failures INTEGER NOT NULL,
  last_failure_at BIGINT NOT NULL,
  blocked_until BIGINT NOT NULL
);
CREATE INDEX sign_in_throttles_last_failure_at ON sign_in_throttles (last_failure_at);

-- Device cookies issued before this instant no longer count (a password change revokes them).
ALTER TABLE accounts ADD COLUMN devices_valid_after BIGINT NOT NULL DEFAULT 0;

-- What a page shows once after a redirect (a new key's secret, a notice), encrypted with a key only
-- the session's cookie holds; read once, then gone.
CREATE TABLE session_flashes (
  session_digest TEXT NOT NULL REFERENCES sessions (id_digest) ON DELETE CASCADE,
  page TEXT NOT NULL,
  payload TEXT NOT NULL,
  expires_at BIGINT NOT NULL,
  PRIMARY KEY (session_digest, page)
);
CREATE INDEX session_flashes_expires_at ON session_flashes (expires_at);

-- Every member so far could do everything: they stay owners.
ALTER TABLE memberships ADD COLUMN role TEXT NOT NULL DEFAULT 'owner'
  CHECK (role IN ('owner', 'developer', 'viewer'));
