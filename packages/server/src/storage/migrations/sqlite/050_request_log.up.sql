-- Every API request made with a project's key: written in batches off the request path, kept by the
-- project's plan (insights/retention.ts). No header, body or secret is ever stored: `path` is the
-- request target with secrets redacted.
CREATE TABLE request_log (
  id INTEGER PRIMARY KEY,
  project_id TEXT NOT NULL,
  at INTEGER NOT NULL,
  request_id TEXT NOT NULL,
  key_id TEXT NOT NULL,
  key_label TEXT NULL,
  operation TEXT NOT NULL,
  method TEXT NOT NULL,
  path TEXT NOT NULL,
  status INTEGER NOT NULL,
  code TEXT NULL,
  latency_ms REAL NOT NULL,
  address TEXT NOT NULL
);
CREATE INDEX request_log_project_at ON request_log (project_id, at DESC, id DESC);
CREATE INDEX request_log_project_key_at ON request_log (project_id, key_id, at DESC, id DESC);
CREATE INDEX request_log_project_request_id ON request_log (project_id, request_id, at DESC, id DESC);
