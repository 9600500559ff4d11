ALTER TABLE idempotency_keys ADD COLUMN status_code INTEGER NULL, ADD COLUMN response_body TEXT NULL;
UPDATE idempotency_keys i SET status_code = 201,
  response_body = json_strip_nulls(
    json_build_object('id', p.id, 'name', p.name, 'categoryId', p.category_id, 'status', p.status)
  )::text
  FROM pets p WHERE p.id = i.pet_id;
DELETE FROM idempotency_keys WHERE response_body IS NULL;
ALTER TABLE idempotency_keys ALTER COLUMN status_code SET NOT NULL, ALTER COLUMN response_body SET NOT NULL;
ALTER TABLE idempotency_keys DROP COLUMN pet_id;
