UPDATE request_log_batches SET rows = (
    SELECT substr(p.rows, 1, p.header_length)
      || substr(p.rows, request_log_batches.rows_from, request_log_batches.rows_length)
      || CASE WHEN p.header_length > 0 THEN '}' ELSE '' END
    FROM request_log_pages p WHERE p.id = request_log_batches.page_id)
  WHERE page_id IS NOT NULL;
DROP INDEX request_log_pages_expiry;
DROP TABLE request_log_pages;
ALTER TABLE request_log_batches DROP COLUMN rows_length;
ALTER TABLE request_log_batches DROP COLUMN rows_from;
ALTER TABLE request_log_batches DROP COLUMN page_id;
