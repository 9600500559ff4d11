-- Hourly rollups of the request log, kept up to date by the same transaction as each batch of rows:
-- per project, key, hour (epoch ms of its start), status class (2xx, 4xx without 429, 429, 5xx, other)
-- and latency bucket (storage/usage-records.ts), how many requests. Charts read these, never the
-- raw rows.
CREATE TABLE request_usage (
  project_id TEXT NOT NULL,
  key_id TEXT NOT NULL,
  hour INTEGER NOT NULL,
  class TEXT NOT NULL,
  bucket INTEGER NOT NULL,
  count INTEGER NOT NULL,
  PRIMARY KEY (project_id, hour, key_id, class, bucket)
) WITHOUT ROWID;
CREATE INDEX request_usage_hour ON request_usage (hour);
