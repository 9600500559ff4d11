ALTER TABLE custom_domains DROP COLUMN wrong_since;
ALTER TABLE custom_domains DROP COLUMN check_failures;
ALTER TABLE custom_domains DROP COLUMN check_error;
