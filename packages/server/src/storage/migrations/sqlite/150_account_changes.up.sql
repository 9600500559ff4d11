-- Access tokens join the change feed (migrations 090 and 125): a write of what authenticates a token
-- (its secret, its account, revoked, expiry; the row removed, as with its account) appends the
-- token's account in the same transaction, whichever door wrote it, and each instance drops that
-- account's tokens from its cache. The indexes find the change a transaction has just appended for a
-- key or an account.
ALTER TABLE host_changes ADD COLUMN account_id TEXT NULL;
CREATE INDEX host_changes_account_id ON host_changes (account_id, seq) WHERE account_id IS NOT NULL;
CREATE INDEX host_changes_key_id ON host_changes (key_id, seq) WHERE key_id IS NOT NULL;

CREATE TRIGGER access_tokens_change_update AFTER UPDATE OF digest, account_id, revoked_at, expires_at
  ON access_tokens BEGIN
  INSERT INTO host_changes (account_id) VALUES (OLD.account_id);
  INSERT INTO host_changes (account_id) SELECT NEW.account_id WHERE NEW.account_id IS NOT OLD.account_id;
END;
CREATE TRIGGER access_tokens_change_delete AFTER DELETE ON access_tokens BEGIN
  INSERT INTO host_changes (account_id) VALUES (OLD.account_id);
END;
