-- An idempotency record points at the pet it created; a replay serialises that (immutable) pet again
-- instead of keeping a copy of the response.
ALTER TABLE idempotency_keys ADD COLUMN pet_id BIGINT NULL;
UPDATE idempotency_keys SET pet_id = (response_body::json ->> 'id')::bigint;
ALTER TABLE idempotency_keys ALTER COLUMN pet_id SET NOT NULL;
ALTER TABLE idempotency_keys DROP COLUMN response_body, DROP COLUMN status_code;
