-- When a key was last used, written at most once a minute per key by each server process.
ALTER TABLE api_keys ADD COLUMN last_used_at BIGINT NULL;
