-- Contested names are settled by proof: several projects may claim one host name, each with its own
-- row; only one row per name is ever verified (served). proof_txt: the claim must show its TXT
-- ownership record besides the CNAME. failed_at: when it failed (released 7 days later).
ALTER TABLE custom_domains ADD COLUMN proof_txt BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE custom_domains ADD COLUMN failed_at BIGINT NULL;
UPDATE custom_domains SET failed_at = coalesce(checked_at, created_at) WHERE state = 'failed';
ALTER TABLE custom_domains DROP CONSTRAINT custom_domains_pkey;
ALTER TABLE custom_domains ADD PRIMARY KEY (hostname, project_id);
CREATE UNIQUE INDEX custom_domains_one_served ON custom_domains (hostname) WHERE state = 'verified';
