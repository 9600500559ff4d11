DROP TRIGGER api_keys_change_delete;
DROP TRIGGER api_keys_change_update;
ALTER TABLE host_changes DROP COLUMN key_id;
