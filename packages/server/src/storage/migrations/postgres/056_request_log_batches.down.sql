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
CREATE INDEX request_log_project_at ON request_log (project_id, at, id);
CREATE INDEX request_log_project_key_at ON request_log (project_id, key_id, at, id);
CREATE INDEX request_log_project_request_id ON request_log (project_id, request_id, at, id);
DO $$
DECLARE
  day BIGINT;
BEGIN
  FOR day IN SELECT DISTINCT first_at / 86400000 FROM request_log_batches LOOP
    EXECUTE format('CREATE TABLE %I PARTITION OF request_log FOR VALUES FROM (%s) TO (%s)',
      'request_log_d' || to_char(to_timestamp(day * 86400) AT TIME ZONE 'UTC', 'YYYYMMDD'),
      day * 86400000, (day + 1) * 86400000);
  END LOOP;
END
$$;
INSERT INTO request_log (id, project_id, at, request_id, key_id, key_label, operation, method, path, status,
    code, latency_ms, address)
  SELECT b.id * 256 + r.n - 1, b.project_id, (r.v ->> 0)::bigint, r.v ->> 1, r.v ->> 2, r.v ->> 3, r.v ->> 4,
    r.v ->> 5, r.v ->> 6, (r.v ->> 7)::integer, r.v ->> 8, (r.v ->> 9)::double precision, r.v ->> 10
  FROM request_log_batches b, json_array_elements(b.rows::json) WITH ORDINALITY r(v, n)
  WHERE json_typeof(r.v) = 'array';
SELECT setval('request_log_id', (SELECT coalesce(max(id), 0) + 1 FROM request_log), false);
CREATE TABLE request_log_hours (
  project_id TEXT NOT NULL,
  key_id TEXT NOT NULL,
  operation TEXT NOT NULL,
  status INTEGER NOT NULL,
  hour BIGINT NOT NULL,
  PRIMARY KEY (project_id, key_id, operation, status, hour)
);
CREATE INDEX request_log_hours_hour ON request_log_hours (hour);
CREATE FUNCTION request_log_note_hours() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  INSERT INTO request_log_hours (project_id, key_id, operation, status, hour)
    SELECT DISTINCT project_id, key_id, operation, status, at - at % 3600000 FROM request_log_new
    ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;
CREATE TRIGGER request_log_note_hours AFTER INSERT ON request_log
  REFERENCING NEW TABLE AS request_log_new
  FOR EACH STATEMENT EXECUTE FUNCTION request_log_note_hours();
INSERT INTO request_log_hours (project_id, key_id, operation, status, hour)
  SELECT DISTINCT project_id, key_id, operation, status, at - at % 3600000 FROM request_log
  ON CONFLICT DO NOTHING;
DROP TABLE request_log_request_ids;
DROP TABLE request_log_batches;
DROP SEQUENCE request_log_batch_id;
