-- Invitations to join a project with a role: a single-use link, valid 7 days. Only the SHA-256 of the
-- link's token is stored; `id` names the invitation in the dashboard (to revoke it).
CREATE TABLE invitations (
  id TEXT PRIMARY KEY,
  token_digest TEXT NOT NULL UNIQUE,
  project_id TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  email TEXT NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('owner', 'developer', 'viewer')),
  invited_by TEXT NULL REFERENCES accounts (id) ON DELETE SET NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  accepted_at INTEGER NULL
);
CREATE INDEX invitations_project_id ON invitations (project_id);
