CREATE TABLE pets (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL,
  category_id INTEGER NOT NULL,
  status TEXT NULL CHECK (status IN ('available', 'pending', 'sold'))
);
CREATE INDEX pets_status_id ON pets (status, id);

CREATE TABLE api_keys (
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

CREATE TABLE idempotency_keys (
  api_key_id TEXT NOT NULL,
  key TEXT NOT NULL,
  request_hash TEXT NOT NULL,
  status_code INTEGER NOT NULL,
  response_body TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  PRIMARY KEY (api_key_id, key)
);
CREATE INDEX idempotency_keys_expires_at ON idempotency_keys (expires_at);
