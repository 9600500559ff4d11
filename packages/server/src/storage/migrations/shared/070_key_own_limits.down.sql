ALTER TABLE api_keys DROP COLUMN own_per_day;
ALTER TABLE api_keys DROP COLUMN own_per_minute;
