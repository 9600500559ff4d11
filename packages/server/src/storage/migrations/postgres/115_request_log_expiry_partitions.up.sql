-- The request log partitioned by the day its batches expire instead of the day they were written
-- (storage/request-log-expiry.ts): a batch of day D of a plan keeping R days expires at the start of day
-- D + 1 + R, fixed when it is written, and purging drops whole partitions for every plan. Before, only the
-- days past the longest retention went whole; the shorter plans' requests were emptied batch by batch,
-- project by project, in a time that grew with the square of the rows (docs/benchmarks.md).
-- request_log_batches_eYYYYMMDD holds the expiries in (day - 1, day] (epoch ms), and
-- request_log_request_ids_eYYYYMMDD the same batches' request-id entries. Existing batches move over, their
-- expiry taken from their project's plan now (the longest retention for a project no longer there).
ALTER TABLE request_log_batches RENAME TO request_log_batches_by_day;
ALTER INDEX request_log_batches_project_at RENAME TO request_log_batches_by_day_project_at;
ALTER INDEX request_log_batches_request_time RENAME TO request_log_batches_by_day_request_time;
ALTER INDEX request_log_batches_id RENAME TO request_log_batches_by_day_id;
ALTER TABLE request_log_request_ids RENAME TO request_log_request_ids_by_day;
ALTER INDEX request_log_request_ids_lookup RENAME TO request_log_request_ids_by_day_lookup;

CREATE TABLE request_log_batches (
  id BIGINT NOT NULL,
  project_id TEXT NOT NULL,
  first_at BIGINT NOT NULL,
  last_at BIGINT NOT NULL,
  id_ms_min BIGINT NULL,
  id_ms_max BIGINT NULL,
  requests INTEGER NOT NULL,
  combinations TEXT NOT NULL,
  rows TEXT NOT NULL,
  expires_at BIGINT NOT NULL
) PARTITION BY RANGE (expires_at);
CREATE INDEX request_log_batches_project_at ON request_log_batches (project_id, last_at, id, first_at);
CREATE INDEX request_log_batches_request_time ON request_log_batches (project_id, id_ms_max, id_ms_min);
CREATE INDEX request_log_batches_id ON request_log_batches (id);
CREATE TABLE request_log_request_ids (
  project_id TEXT NOT NULL,
  request_id TEXT NOT NULL,
  row_id BIGINT NOT NULL,
  at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL
) PARTITION BY RANGE (expires_at);
CREATE INDEX request_log_request_ids_lookup ON request_log_request_ids (project_id, request_id);

CREATE TEMP TABLE request_log_expiries AS
  SELECT b.id, (b.first_at / 86400000 + 1 + CASE p.plan WHEN 'free' THEN 1 WHEN 'pro' THEN 7
      WHEN 'business' THEN 30 WHEN 'enterprise' THEN 30 ELSE 30 END) * 86400000 AS expires_at
  FROM request_log_batches_by_day b LEFT JOIN projects p ON p.id = b.project_id;
DO $$
DECLARE
  day BIGINT;
  stamp TEXT;
BEGIN
  FOR day IN SELECT DISTINCT expires_at / 86400000 FROM request_log_expiries LOOP
    stamp := to_char(to_timestamp(day * 86400) AT TIME ZONE 'UTC', 'YYYYMMDD');
    EXECUTE format('CREATE TABLE %I PARTITION OF request_log_batches FOR VALUES FROM (%s) TO (%s)',
      'request_log_batches_e' || stamp, (day - 1) * 86400000 + 1, day * 86400000 + 1);
    EXECUTE format('CREATE TABLE %I PARTITION OF request_log_request_ids FOR VALUES FROM (%s) TO (%s)',
      'request_log_request_ids_e' || stamp, (day - 1) * 86400000 + 1, day * 86400000 + 1);
  END LOOP;
END
$$;
INSERT INTO request_log_batches (id, project_id, first_at, last_at, id_ms_min, id_ms_max, requests,
    combinations, rows, expires_at)
  SELECT b.id, b.project_id, b.first_at, b.last_at, b.id_ms_min, b.id_ms_max, b.requests, b.combinations,
    b.rows, e.expires_at
  FROM request_log_batches_by_day b JOIN request_log_expiries e ON e.id = b.id;
INSERT INTO request_log_request_ids (project_id, request_id, row_id, at, expires_at)
  SELECT r.project_id, r.request_id, r.row_id, r.at, e.expires_at
  FROM request_log_request_ids_by_day r JOIN request_log_expiries e ON e.id = r.row_id / 256;
DROP TABLE request_log_expiries;
DROP TABLE request_log_request_ids_by_day;
DROP TABLE request_log_batches_by_day;
