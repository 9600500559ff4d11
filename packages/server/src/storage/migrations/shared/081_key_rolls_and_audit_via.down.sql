ALTER TABLE audit_log DROP COLUMN via;
DROP INDEX api_keys_project_created;
ALTER TABLE api_keys DROP COLUMN rolled_to;
ALTER TABLE api_keys DROP COLUMN rolled_at;
