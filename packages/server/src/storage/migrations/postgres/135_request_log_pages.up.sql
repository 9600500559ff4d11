-- A write's batches that expire together share one page (storage/request-log-pages.ts): with traffic
-- spread over many projects a batch held a few requests, each with a row of its own and its text's
-- envelope. A batch keeps its row (what listings find it by) and where its requests lie in its page;
-- batches written before keep their requests in their own `rows` (page_id null). Pages are partitioned
-- by expiry as the batches are (request_log_pages_eYYYYMMDD, made with the batches' partitions of that
-- day and dropped with them).
CREATE SEQUENCE request_log_page_id;
CREATE TABLE request_log_pages (
  id BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  requests INTEGER NOT NULL,
  header_length INTEGER NOT NULL,
  rows TEXT NOT NULL
) PARTITION BY RANGE (expires_at);
CREATE INDEX request_log_pages_id ON request_log_pages (id);
ALTER TABLE request_log_batches ADD COLUMN page_id BIGINT NULL, ADD COLUMN rows_from INTEGER NULL,
  ADD COLUMN rows_length INTEGER NULL;
