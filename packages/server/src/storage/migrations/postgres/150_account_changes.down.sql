DROP TRIGGER host_changes_notify ON host_changes;
CREATE OR REPLACE FUNCTION host_changes_notify() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  PERFORM pg_notify('petstore_host_changes', current_schema());
  RETURN NULL;
END
$$;
CREATE TRIGGER host_changes_notify AFTER INSERT ON host_changes
  FOR EACH STATEMENT EXECUTE FUNCTION host_changes_notify();
DROP TRIGGER access_tokens_change ON access_tokens;
DROP FUNCTION access_token_change();
DROP INDEX host_changes_key_id;
DROP INDEX host_changes_account_id;
ALTER TABLE host_changes DROP COLUMN account_id;
