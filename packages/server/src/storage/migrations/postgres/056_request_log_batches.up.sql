-- The request log as batches, as SQLite keeps it (storage/request-log-batch.ts): one row per batch of up
-- to 256 requests of one project and one UTC day, the requests a JSON array. A logged request cost a row,
-- three index entries and the hours trigger's work, 6.5-8.4 µs of PostgreSQL's CPU; it now costs a share
-- of its batch's row (docs/benchmarks.md). Both tables are partitioned by day (epoch ms ranges of
-- first_at and at): the writer creates each day's partitions (request_log_batches_dYYYYMMDD,
-- request_log_request_ids_dYYYYMMDD) before its first batch, and purging drops whole days. A search by
-- request id reads the batches whose UUIDv7 ids span the id's time (id_ms_min, id_ms_max), and the
-- request-id table, which holds the other ids only (a client's own X-Request-Id, and every id logged
-- before this migration). Listings filter batches by their combinations of key, operation and status,
-- which replaces request_log_hours.
-- A request's id becomes its batch's id × 256 + its place: links to requests logged before name none.
CREATE SEQUENCE request_log_batch_id;
CREATE TABLE request_log_batches (
  id BIGINT NOT NULL,
  project_id TEXT NOT NULL,
  first_at BIGINT NOT NULL,
  last_at BIGINT NOT NULL,
  id_ms_min BIGINT NULL,
  id_ms_max BIGINT NULL,
  -- Slots holding a request: what purging a day's partition counts.
  requests INTEGER NOT NULL,
  combinations TEXT NOT NULL,
  rows TEXT NOT NULL
) PARTITION BY RANGE (first_at);
CREATE INDEX request_log_batches_project_at ON request_log_batches (project_id, last_at, id, first_at);
CREATE INDEX request_log_batches_request_time ON request_log_batches (project_id, id_ms_max, id_ms_min);
CREATE INDEX request_log_batches_id ON request_log_batches (id);
CREATE TABLE request_log_request_ids (
  project_id TEXT NOT NULL,
  request_id TEXT NOT NULL,
  row_id BIGINT NOT NULL,
  at BIGINT NOT NULL
) PARTITION BY RANGE (at);
CREATE INDEX request_log_request_ids_lookup ON request_log_request_ids (project_id, request_id);

DO $$
DECLARE
  day BIGINT;
  stamp TEXT;
BEGIN
  FOR day IN SELECT DISTINCT at / 86400000 FROM request_log LOOP
    stamp := to_char(to_timestamp(day * 86400) AT TIME ZONE 'UTC', 'YYYYMMDD');
    EXECUTE format('CREATE TABLE %I PARTITION OF request_log_batches FOR VALUES FROM (%s) TO (%s)',
      'request_log_batches_d' || stamp, day * 86400000, (day + 1) * 86400000);
    EXECUTE format('CREATE TABLE %I PARTITION OF request_log_request_ids FOR VALUES FROM (%s) TO (%s)',
      'request_log_request_ids_d' || stamp, day * 86400000, (day + 1) * 86400000);
  END LOOP;
END
$$;

CREATE TEMP TABLE request_log_placed AS
  SELECT *, (n / 256) AS chunk, (n % 256) AS position FROM (
    SELECT *, at / 86400000 AS day,
      row_number() OVER (PARTITION BY project_id, at / 86400000 ORDER BY at, id) - 1 AS n
    FROM request_log) r;
-- Batch ids start above every old row id / 256, so an old id names no request rather than another one.
CREATE TEMP TABLE request_log_chunks AS
  SELECT project_id, day, chunk,
    (SELECT coalesce(max(id), 0) / 256 + 1 FROM request_log) + row_number() OVER (ORDER BY project_id, day, chunk)
      AS batch_id
  FROM (SELECT DISTINCT project_id, day, chunk FROM request_log_placed) c;
INSERT INTO request_log_batches (id, project_id, first_at, last_at, requests, combinations, rows)
  SELECT c.batch_id, c.project_id, min(p.at), max(p.at), count(*),
    string_agg(DISTINCT '|' || p.key_id || '|' || p.operation || '|' || p.status || '|', ','),
    json_agg(json_build_array(p.at, p.request_id, p.key_id, p.key_label, p.operation, p.method, p.path,
      p.status, p.code, p.latency_ms, p.address) ORDER BY p.position)::text
  FROM request_log_placed p JOIN request_log_chunks c
    ON c.project_id = p.project_id AND c.day = p.day AND c.chunk = p.chunk
  GROUP BY c.batch_id, c.project_id;
INSERT INTO request_log_request_ids (project_id, request_id, row_id, at)
  SELECT p.project_id, p.request_id, c.batch_id * 256 + p.position, p.at
  FROM request_log_placed p JOIN request_log_chunks c
    ON c.project_id = p.project_id AND c.day = p.day AND c.chunk = p.chunk;
SELECT setval('request_log_batch_id',
  (SELECT greatest(coalesce(max(batch_id), 0), (SELECT coalesce(max(id), 0) / 256 + 1 FROM request_log))
   FROM request_log_chunks));
DROP TABLE request_log_placed;
DROP TABLE request_log_chunks;

DROP TRIGGER request_log_note_hours ON request_log;
DROP FUNCTION request_log_note_hours();
DROP TABLE request_log_hours;
DROP TABLE request_log;
DROP SEQUENCE request_log_id;
