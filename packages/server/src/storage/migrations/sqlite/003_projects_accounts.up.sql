-- Projects own API keys (and their plan decides the keys' limits), accounts are members of projects,
-- and signed-in accounts have server-side sessions. Keys created before projects existed keep
-- project_id NULL and their own plan: nothing about them changes.
CREATE TABLE projects (
  id TEXT PRIMARY KEY,
  slug TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  plan TEXT NOT NULL CHECK (plan IN ('free', 'pro', 'business', 'enterprise')),
  per_minute INTEGER NULL,
  per_day INTEGER NULL,
  created_at INTEGER NOT NULL
);

ALTER TABLE api_keys ADD COLUMN project_id TEXT NULL REFERENCES projects (id);
-- The start of the secret (`ps_live_AbCd`), so people can tell their keys apart; NULL for older keys.
ALTER TABLE api_keys ADD COLUMN prefix TEXT NULL;
CREATE INDEX api_keys_project_id ON api_keys (project_id);

CREATE TABLE accounts (
  id TEXT PRIMARY KEY,
  email TEXT NOT NULL UNIQUE,
  password_hash TEXT NOT NULL,
  created_at INTEGER NOT NULL
);

CREATE TABLE memberships (
  account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  project_id TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (account_id, project_id)
);
CREATE INDEX memberships_project_id ON memberships (project_id);

CREATE TABLE sessions (
  id_digest TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  csrf_token TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
);
CREATE INDEX sessions_account_id ON sessions (account_id);
CREATE INDEX sessions_expires_at ON sessions (expires_at);
