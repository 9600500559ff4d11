-- A project key's own limits, lower than its project's plan (NULL: none of its own, the project's
-- limits alone hold). The project's limits hold for all its keys together whatever these say.
ALTER TABLE api_keys ADD COLUMN own_per_minute BIGINT NULL;
ALTER TABLE api_keys ADD COLUMN own_per_day BIGINT NULL;
