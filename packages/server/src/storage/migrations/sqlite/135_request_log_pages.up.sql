-- A write's batches that expire together share one page (storage/request-log-pages.ts): with traffic
-- spread over many projects a batch held a few requests, each with a row of its own and its text's
-- envelope. A batch keeps its row (what listings find it by) and where its requests lie in its page;
-- batches written before keep their requests in their own `rows` (page_id null). A page starts with
-- `header_length` characters (base and strings shared by its batches) that each part follows.
ALTER TABLE request_log_batches ADD COLUMN page_id INTEGER NULL;
ALTER TABLE request_log_batches ADD COLUMN rows_from INTEGER NULL;
ALTER TABLE request_log_batches ADD COLUMN rows_length INTEGER NULL;
CREATE TABLE request_log_pages (
  id INTEGER PRIMARY KEY,
  expires_at INTEGER NOT NULL,
  requests INTEGER NOT NULL,
  header_length INTEGER NOT NULL,
  rows TEXT NOT NULL
);
CREATE INDEX request_log_pages_expiry ON request_log_pages (expires_at);
