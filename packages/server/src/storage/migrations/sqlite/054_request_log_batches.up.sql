-- The request log as batches (storage/request-log-batch.ts): one row per batch of up to 256 requests of
-- one project, the requests a JSON array. A search by request id reads the batches whose UUIDv7 ids span
-- the id's time (id_ms_min, id_ms_max), and the request-id table, which holds the other ids only (a
-- client's own X-Request-Id, and every id logged before this migration). A logged request cost a row and
-- three index entries, about 5 µs of the event loop; it now costs a share of its batch's row
-- (docs/benchmarks.md, "The request log as batches").
-- A request's id becomes its batch's id × 256 + its place: links to requests logged before name none.
CREATE TABLE request_log_batches (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  project_id TEXT NOT NULL,
  first_at INTEGER NOT NULL,
  last_at INTEGER NOT NULL,
  id_ms_min INTEGER NULL,
  id_ms_max INTEGER NULL,
  combinations TEXT NOT NULL,
  rows TEXT NOT NULL
);
-- Listings read this index newest first, and a batch's requests only when its time range and its
-- combinations of key, operation and status may match.
CREATE INDEX request_log_batches_project_at ON request_log_batches (project_id, last_at, id, first_at);
CREATE INDEX request_log_batches_request_time ON request_log_batches (project_id, id_ms_max, id_ms_min);
CREATE TABLE request_log_request_ids (
  project_id TEXT NOT NULL,
  request_id TEXT NOT NULL,
  row_id INTEGER NOT NULL,
  PRIMARY KEY (project_id, request_id, row_id)
) WITHOUT ROWID;

CREATE TEMP TABLE request_log_placed AS
  SELECT *, (n / 256) AS chunk, (n % 256) AS position FROM (
    SELECT *, row_number() OVER (PARTITION BY project_id ORDER BY at, id) - 1 AS n FROM request_log);
-- Batch ids start above every old row id / 256, so an old id names no request rather than another one.
CREATE TEMP TABLE request_log_chunks AS
  SELECT project_id, chunk,
    (SELECT coalesce(max(id), 0) / 256 + 1 FROM request_log) + row_number() OVER (ORDER BY project_id, chunk)
      AS batch_id
  FROM (SELECT DISTINCT project_id, chunk FROM request_log_placed);
INSERT INTO request_log_batches (id, project_id, first_at, last_at, combinations, rows)
  SELECT c.batch_id, c.project_id, min(p.at), max(p.at),
    group_concat(DISTINCT '|' || p.key_id || '|' || p.operation || '|' || p.status || '|'),
    json_group_array(json_array(p.at, p.request_id, p.key_id, p.key_label, p.operation, p.method, p.path,
      p.status, p.code, p.latency_ms, p.address) ORDER BY p.position)
  FROM request_log_placed p JOIN request_log_chunks c ON c.project_id = p.project_id AND c.chunk = p.chunk
  GROUP BY c.batch_id;
INSERT INTO request_log_request_ids (project_id, request_id, row_id)
  SELECT p.project_id, p.request_id, c.batch_id * 256 + p.position
  FROM request_log_placed p JOIN request_log_chunks c ON c.project_id = p.project_id AND c.chunk = p.chunk;
DROP TABLE request_log_placed;
DROP TABLE request_log_chunks;
DROP TABLE request_log;
