DROP INDEX request_log_request_ids_row;
DROP INDEX request_log_batches_expiry;
ALTER TABLE request_log_batches DROP COLUMN expires_at;
ALTER TABLE request_log_batches DROP COLUMN requests;
