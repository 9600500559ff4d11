-- Every API request made with a project's key: written in batches off the request path, kept by the
-- project's plan (insights/retention.ts). No header, body or secret is ever stored: `path` is the
-- request target with secrets redacted. Partitioned by day (UTC, epoch ms ranges): the writer creates
-- each day's partition (request_log_dYYYYMMDD) before its first row, and purging drops whole days.
CREATE SEQUENCE request_log_id;
CREATE TABLE request_log (
  id BIGINT NOT NULL DEFAULT nextval('request_log_id'),
  project_id TEXT NOT NULL,
  at BIGINT NOT NULL,
  request_id TEXT NOT NULL,
  key_id TEXT NOT NULL,
  key_label TEXT NULL,
  operation TEXT NOT NULL,
  method TEXT NOT NULL,
  path TEXT NOT NULL,
  status INTEGER NOT NULL,
  code TEXT NULL,
  latency_ms DOUBLE PRECISION NOT NULL,
  address TEXT NOT NULL
) PARTITION BY RANGE (at);
CREATE INDEX request_log_project_at ON request_log (project_id, at DESC, id DESC);
CREATE INDEX request_log_project_key_at ON request_log (project_id, key_id, at DESC, id DESC);
CREATE INDEX request_log_project_request_id ON request_log (project_id, request_id, at DESC, id DESC);
