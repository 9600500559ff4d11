ALTER TABLE access_tokens DROP COLUMN manages_tokens;
