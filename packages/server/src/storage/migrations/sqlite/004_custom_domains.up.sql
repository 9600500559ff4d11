-- A project's custom domains. The state is what the last DNS check saw; a project below Pro has its
-- domains suspended without any write here (the plan is read with them). One primary per project.
CREATE TABLE custom_domains (
  hostname TEXT PRIMARY KEY,
  project_id TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  apex INTEGER NOT NULL,
  token TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('pending', 'verified', 'failed')),
  reason TEXT NULL,
  is_primary INTEGER NOT NULL,
  checks TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  verified_at INTEGER NULL,
  checked_at INTEGER NULL,
  next_check_at INTEGER NOT NULL
);
CREATE INDEX custom_domains_project_id ON custom_domains (project_id);
CREATE INDEX custom_domains_next_check_at ON custom_domains (next_check_at);
CREATE UNIQUE INDEX custom_domains_one_primary ON custom_domains (project_id) WHERE is_primary;
