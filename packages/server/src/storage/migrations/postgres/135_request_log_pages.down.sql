UPDATE request_log_batches b SET rows = substr(p.rows, 1, p.header_length)
    || substr(p.rows, b.rows_from, b.rows_length) || CASE WHEN p.header_length > 0 THEN '}' ELSE '' END
  FROM request_log_pages p WHERE p.id = b.page_id AND p.expires_at = b.expires_at;
DROP TABLE request_log_pages;
DROP SEQUENCE request_log_page_id;
ALTER TABLE request_log_batches DROP COLUMN page_id, DROP COLUMN rows_from, DROP COLUMN rows_length;
