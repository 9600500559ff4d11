-- A key's roll (the successor's id and when
-- the roll was made: a key is rolled at most once, which makes two concurrent rolls one winner); and
-- through which door an audited action came (`dashboard`, `cli`, `service`, or `token:<id>`).
ALTER TABLE api_keys ADD COLUMN rolled_at INTEGER NULL;
ALTER TABLE api_keys ADD COLUMN rolled_to TEXT NULL;
CREATE INDEX api_keys_project_created ON api_keys (project_id, created_at, id);
ALTER TABLE audit_log ADD COLUMN via TEXT NULL;
