DROP TABLE sessions;
DROP TABLE memberships;
DROP TABLE accounts;
ALTER TABLE api_keys DROP COLUMN project_id, DROP COLUMN prefix;
DROP TABLE projects;
