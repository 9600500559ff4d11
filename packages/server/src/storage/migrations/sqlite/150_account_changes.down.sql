DROP TRIGGER access_tokens_change_delete;
DROP TRIGGER access_tokens_change_update;
DROP INDEX host_changes_key_id;
DROP INDEX host_changes_account_id;
ALTER TABLE host_changes DROP COLUMN account_id;
