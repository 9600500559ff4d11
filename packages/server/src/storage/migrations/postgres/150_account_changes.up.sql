-- Access tokens join the change feed (migrations 090 and 125): a write of what authenticates a token
-- (its secret, its account, revoked, expiry; the row removed, as with its account) appends the
-- token's account in the same transaction, whichever door wrote it, and each instance drops that
-- account's tokens from its cache. The indexes find the change a transaction has just appended for a
-- key or an account (the instance that made it waits for its notification: changes/feed.ts, echo).
-- The notification now names the sequence numbers its statement appended (`<schema> <first> <last>`),
-- so that instance knows which notification is its own.
ALTER TABLE host_changes ADD COLUMN account_id TEXT NULL;
CREATE INDEX host_changes_account_id ON host_changes (account_id, seq) WHERE account_id IS NOT NULL;
CREATE INDEX host_changes_key_id ON host_changes (key_id, seq) WHERE key_id IS NOT NULL;

CREATE FUNCTION access_token_change() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  INSERT INTO host_changes (account_id) VALUES (OLD.account_id);
  IF TG_OP = 'UPDATE' AND NEW.account_id IS DISTINCT FROM OLD.account_id THEN
    INSERT INTO host_changes (account_id) VALUES (NEW.account_id);
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER access_tokens_change AFTER UPDATE OF digest, account_id, revoked_at, expires_at OR DELETE
  ON access_tokens FOR EACH ROW EXECUTE FUNCTION access_token_change();

DROP TRIGGER host_changes_notify ON host_changes;
CREATE OR REPLACE FUNCTION host_changes_notify() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
  first_seq BIGINT;
  last_seq BIGINT;
BEGIN
  SELECT min(seq), max(seq) INTO first_seq, last_seq FROM appended;
  IF first_seq IS NOT NULL THEN
    PERFORM pg_notify('petstore_host_changes', format('%s %s %s', current_schema(), first_seq, last_seq));
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER host_changes_notify AFTER INSERT ON host_changes REFERENCING NEW TABLE AS appended
  FOR EACH STATEMENT EXECUTE FUNCTION host_changes_notify();
