-- Back to one row per name: the served claim, else the oldest.
CREATE TABLE custom_domains_one (
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
  next_check_at INTEGER NOT NULL,
  check_error TEXT NULL,
  check_failures INTEGER NOT NULL DEFAULT 0,
  wrong_since INTEGER NULL
);
INSERT INTO custom_domains_one
SELECT hostname, project_id, apex, token, state, reason, is_primary, checks, created_at, verified_at,
  checked_at, next_check_at, check_error, check_failures, wrong_since
FROM custom_domains d
WHERE NOT EXISTS (SELECT 1 FROM custom_domains o WHERE o.hostname = d.hostname AND o.project_id <> d.project_id
  AND ((o.state = 'verified') > (d.state = 'verified')
       OR ((o.state = 'verified') = (d.state = 'verified') AND o.created_at < d.created_at)));
DROP TABLE custom_domains;
ALTER TABLE custom_domains_one RENAME TO custom_domains;
CREATE INDEX custom_domains_project_id ON custom_domains (project_id);
CREATE INDEX custom_domains_next_check_at ON custom_domains (next_check_at);
CREATE UNIQUE INDEX custom_domains_one_primary ON custom_domains (project_id) WHERE is_primary;
