-- The management API's answers to a create under an Idempotency-Key (a key, a roll, an access token),
-- kept for replay. Each holds a secret, so the body is sealed (AES-256-GCM, idempotency/sealed-answers.ts)
-- and belongs to the access token that sent the request: it goes when the token's account goes.
CREATE TABLE idempotent_responses (
  token_id TEXT NOT NULL REFERENCES access_tokens (id) ON DELETE CASCADE,
  key TEXT NOT NULL,
  request_hash TEXT NOT NULL,
  sealed_body TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  PRIMARY KEY (token_id, key)
);
CREATE INDEX idempotent_responses_expires_at ON idempotent_responses (expires_at);
