-- Contested names are settled by proof: several projects may claim one host name, each with its own
-- row; only one row per name is ever verified (served). proof_txt: the claim must show its TXT
-- ownership record besides the CNAME. failed_at: when it failed (released 7 days later).
CREATE TABLE custom_domains_claims (
  hostname TEXT NOT NULL,
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
  wrong_since INTEGER NULL,
  proof_txt INTEGER NOT NULL DEFAULT 0,
  failed_at INTEGER NULL,
  PRIMARY KEY (hostname, project_id)
);
INSERT INTO custom_domains_claims (hostname, project_id, apex, token, state, reason, is_primary, checks,
  created_at, verified_at, checked_at, next_check_at, check_error, check_failures, wrong_since, failed_at)
SELECT hostname, project_id, apex, token, state, reason, is_primary, checks, created_at, verified_at,
  checked_at, next_check_at, check_error, check_failures, wrong_since,
  CASE WHEN state = 'failed' THEN coalesce(checked_at, created_at) END
FROM custom_domains;
DROP TABLE custom_domains;
ALTER TABLE custom_domains_claims RENAME TO custom_domains;
CREATE INDEX custom_domains_project_id ON custom_domains (project_id);
CREATE INDEX custom_domains_next_check_at ON custom_domains (next_check_at);
CREATE UNIQUE INDEX custom_domains_one_primary ON custom_domains (project_id) WHERE is_primary;
CREATE UNIQUE INDEX custom_domains_one_served ON custom_domains (hostname) WHERE state = 'verified';
