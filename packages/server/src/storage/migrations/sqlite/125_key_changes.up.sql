-- Keys join the change feed of migration 090: a write of what authenticates or limits a key (revoked,
-- rolled, expiry, plan, limits, ban; anything but its last use) appends the key's id in the same
-- transaction, whichever door wrote it, and each instance drops that key alone from its key cache.
-- A project's plan and limits are its keys' too: the projects triggers of 090 publish those already.
-- No insert trigger: a new key's secret was never presented, so no instance can hold it cached.
ALTER TABLE host_changes ADD COLUMN key_id TEXT NULL;

CREATE TRIGGER api_keys_change_update AFTER UPDATE OF id, digest, project_id, plan, per_minute, per_day,
  own_per_minute, own_per_day, environment, revoked_at, expires_at, banned_until, ban_lifted_at, rolled_at,
  rolled_to ON api_keys BEGIN
  INSERT INTO host_changes (key_id) VALUES (OLD.id);
END;
CREATE TRIGGER api_keys_change_delete AFTER DELETE ON api_keys BEGIN
  INSERT INTO host_changes (key_id) VALUES (OLD.id);
END;
