DROP INDEX request_log_project_at;
DROP INDEX request_log_project_key_at;
DROP INDEX request_log_project_request_id;
CREATE INDEX request_log_project_at ON request_log (project_id, at DESC, id DESC);
CREATE INDEX request_log_project_key_at ON request_log (project_id, key_id, at DESC, id DESC);
CREATE INDEX request_log_project_request_id ON request_log (project_id, request_id, at DESC, id DESC);
