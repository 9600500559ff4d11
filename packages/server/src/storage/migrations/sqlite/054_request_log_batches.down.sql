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
INSERT INTO request_log (id, project_id, at, request_id, key_id, key_label, operation, method, path, status,
    code, latency_ms, address)
  SELECT b.id * 256 + r.key, b.project_id, r.value ->> 0, r.value ->> 1, r.value ->> 2, r.value ->> 3,
    r.value ->> 4, r.value ->> 5, r.value ->> 6, r.value ->> 7, r.value ->> 8, r.value ->> 9, r.value ->> 10
  FROM request_log_batches b, json_each(b.rows) r
  WHERE r.type = 'array';
CREATE INDEX request_log_project_at ON request_log (project_id, at, id);
CREATE INDEX request_log_project_key_at ON request_log (project_id, key_id, at, id);
CREATE INDEX request_log_project_request_id ON request_log (project_id, request_id, at, id);
DROP TABLE request_log_request_ids;
DROP TABLE request_log_batches;
