-- The request log's indexes in ascending order. Rows arrive in time order, so each new entry is the
-- largest of its project: ascending, it goes to the right edge of the project's range, where both
-- databases fill pages; descending, it went to the left edge, where splits leave pages half-full.
-- The Requests tab reads newest first by walking these indexes backwards, with no sort
-- (test/storage-sqlite.test.ts checks SQLite's plans). Measured (docs/benchmarks.md): SQLite 20 % fewer
-- pages and less CPU per logged row; PostgreSQL the time and key indexes 45 % smaller. Rebuilding the
-- indexes takes about 2.4 s per million logged rows on SQLite, once.
DROP INDEX request_log_project_at;
DROP INDEX request_log_project_key_at;
DROP INDEX request_log_project_request_id;
CREATE INDEX request_log_project_at ON request_log (project_id, at, id);
CREATE INDEX request_log_project_key_at ON request_log (project_id, key_id, at, id);
CREATE INDEX request_log_project_request_id ON request_log (project_id, request_id, at, id);
