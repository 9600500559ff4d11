DROP TRIGGER api_keys_change ON api_keys;
DROP FUNCTION key_change();
ALTER TABLE host_changes DROP COLUMN key_id;
