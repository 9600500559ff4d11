DROP TABLE sessions;
DROP TABLE memberships;
DROP TABLE accounts;
DROP INDEX api_keys_project_id;
-- SQLite cannot drop a column that takes part in a foreign key: rebuild api_keys without it.
CREATE TABLE api_keys_v1 (
  id TEXT PRIMARY KEY,
  digest TEXT NOT NULL UNIQUE,
  plan TEXT NOT NULL CHECK (plan IN ('free', 'pro', 'business', 'enterprise')),
  per_minute INTEGER NULL,
  per_day INTEGER NULL,
  label TEXT NULL,
  environment TEXT NOT NULL CHECK (environment IN ('live', 'test')),
  created_at INTEGER NOT NULL,
  revoked_at INTEGER NULL,
  expires_at INTEGER NULL,
  banned_until INTEGER NULL,
  ban_lifted_at INTEGER NULL
);
INSERT INTO api_keys_v1
  SELECT id, digest, plan, per_minute, per_day, label, environment, created_at, revoked_at, expires_at,
    banned_until, ban_lifted_at
  FROM api_keys;
DROP TABLE api_keys;
ALTER TABLE api_keys_v1 RENAME TO api_keys;
DROP TABLE projects;
