-- Access tokens of the management API (/manage/v1): an account's, scoped to some of its projects and
-- to read or write, always expiring. Only the SHA-256 digest of the secret (`ps_at_…`) is kept, like
-- API keys'; `prefix` is its first characters, to tell tokens apart.
CREATE TABLE access_tokens (
  id TEXT PRIMARY KEY,
  digest TEXT NOT NULL UNIQUE,
  account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  prefix TEXT NOT NULL,
  scope TEXT NOT NULL CHECK (scope IN ('read', 'write')),
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  revoked_at BIGINT NULL,
  last_used_at BIGINT NULL
);
CREATE INDEX access_tokens_account_id ON access_tokens (account_id, created_at);

-- The projects a token may act on (the account's role in each still decides what it may do there).
CREATE TABLE access_token_projects (
  token_id TEXT NOT NULL REFERENCES access_tokens (id) ON DELETE CASCADE,
  project_id TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  PRIMARY KEY (token_id, project_id)
);
CREATE INDEX access_token_projects_project_id ON access_token_projects (project_id);
