-- Keys join the change feed of migration 090: a write of what authenticates or limits a key (revoked,
-- rolled, expiry, plan, limits, ban; anything but its last use) appends the key's id in the same
-- transaction, whichever door wrote it (090's NOTIFY then tells every instance), and each instance drops
-- that key alone from its key cache. A project's plan and limits are its keys' too: the projects
-- trigger of 090 publishes those already. No insert trigger: a new key's secret was never presented,
-- so no instance can hold it cached.
ALTER TABLE host_changes ADD COLUMN key_id TEXT NULL;

CREATE FUNCTION key_change() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  INSERT INTO host_changes (key_id) VALUES (OLD.id);
  RETURN NULL;
END
$$;
CREATE TRIGGER api_keys_change AFTER UPDATE OF id, digest, project_id, plan, per_minute, per_day,
  own_per_minute, own_per_day, environment, revoked_at, expires_at, banned_until, ban_lifted_at, rolled_at,
  rolled_to OR DELETE ON api_keys FOR EACH ROW EXECUTE FUNCTION key_change();
