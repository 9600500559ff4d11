CREATE TABLE idempotency_keys_v1 (
  api_key_id TEXT NOT NULL,
  key TEXT NOT NULL,
  request_hash TEXT NOT NULL,
  status_code INTEGER NOT NULL,
  response_body TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  PRIMARY KEY (api_key_id, key)
);
INSERT INTO idempotency_keys_v1 (api_key_id, key, request_hash, status_code, response_body, created_at, expires_at)
  SELECT i.api_key_id, i.key, i.request_hash, 201,
    CASE WHEN p.status IS NULL
      THEN json_object('id', p.id, 'name', p.name, 'categoryId', p.category_id)
      ELSE json_object('id', p.id, 'name', p.name, 'categoryId', p.category_id, 'status', p.status)
    END,
    i.created_at, i.expires_at
  FROM idempotency_keys i JOIN pets p ON p.id = i.pet_id;
DROP TABLE idempotency_keys;
ALTER TABLE idempotency_keys_v1 RENAME TO idempotency_keys;
CREATE INDEX idempotency_keys_expires_at ON idempotency_keys (expires_at);
