-- An idempotency record points at the pet it created; a replay serialises that (immutable) pet again
-- instead of keeping a copy of the response.
CREATE TABLE idempotency_keys_v2 (
  api_key_id TEXT NOT NULL,
  key TEXT NOT NULL,
  request_hash TEXT NOT NULL,
  pet_id INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  PRIMARY KEY (api_key_id, key)
);
INSERT INTO idempotency_keys_v2 (api_key_id, key, request_hash, pet_id, created_at, expires_at)
  SELECT api_key_id, key, request_hash, json_extract(response_body, '$.id'), created_at, expires_at
  FROM idempotency_keys;
DROP TABLE idempotency_keys;
ALTER TABLE idempotency_keys_v2 RENAME TO idempotency_keys;
CREATE INDEX idempotency_keys_expires_at ON idempotency_keys (expires_at);
