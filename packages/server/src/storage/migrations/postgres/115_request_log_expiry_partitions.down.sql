-- Back to partitions by the day batches were written (first_at; request ids by at), as 056 made them.
ALTER TABLE request_log_batches RENAME TO request_log_batches_by_expiry;
ALTER INDEX request_log_batches_project_at RENAME TO request_log_batches_by_expiry_project_at;
ALTER INDEX request_log_batches_request_time RENAME TO request_log_batches_by_expiry_request_time;
ALTER INDEX request_log_batches_id RENAME TO request_log_batches_by_expiry_id;
ALTER TABLE request_log_request_ids RENAME TO request_log_request_ids_by_expiry;
ALTER INDEX request_log_request_ids_lookup RENAME TO request_log_request_ids_by_expiry_lookup;

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
  FOR day IN SELECT first_at / 86400000 FROM request_log_batches_by_expiry
      UNION SELECT at / 86400000 FROM request_log_request_ids_by_expiry LOOP
    stamp := to_char(to_timestamp(day * 86400) AT TIME ZONE 'UTC', 'YYYYMMDD');
    EXECUTE format('CREATE TABLE %I PARTITION OF request_log_batches FOR VALUES FROM (%s) TO (%s)',
      'request_log_batches_d' || stamp, day * 86400000, (day + 1) * 86400000);
    EXECUTE format('CREATE TABLE %I PARTITION OF request_log_request_ids FOR VALUES FROM (%s) TO (%s)',
      'request_log_request_ids_d' || stamp, day * 86400000, (day + 1) * 86400000);
  END LOOP;
END
$$;
INSERT INTO request_log_batches (id, project_id, first_at, last_at, id_ms_min, id_ms_max, requests,
    combinations, rows)
  SELECT id, project_id, first_at, last_at, id_ms_min, id_ms_max, requests, combinations, rows
  FROM request_log_batches_by_expiry;
INSERT INTO request_log_request_ids (project_id, request_id, row_id, at)
  SELECT project_id, request_id, row_id, at FROM request_log_request_ids_by_expiry;
DROP TABLE request_log_request_ids_by_expiry;
DROP TABLE request_log_batches_by_expiry;
