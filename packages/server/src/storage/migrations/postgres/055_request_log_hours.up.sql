-- Which hours hold requests of each key, operation and status: a listing filtered by them reads rows
-- only in those hours. Without it, two filters each common but never together (a key and an operation
-- it never called) walked a third of a million rows, 158 ms (docs/benchmarks.md). A trigger keeps it,
-- so every instance's inserts count whatever its version; entries are taken in one order, so two
-- writers never wait on each other in a cycle. An entry outliving its rows costs a listing one empty
-- read, nothing else: the purge removes entries of hours past retention.
CREATE TABLE request_log_hours (
  project_id TEXT NOT NULL,
  key_id TEXT NOT NULL,
  operation TEXT NOT NULL,
  status INTEGER NOT NULL,
  hour BIGINT NOT NULL,
  PRIMARY KEY (project_id, key_id, operation, status, hour)
);
CREATE INDEX request_log_hours_hour ON request_log_hours (hour);
-- The schema the migration ran in, whatever the inserting session's search path.
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
