-- Each batch keeps when it expires (storage/request-log-expiry.ts: the end of its day plus its project's
-- plan's retention, fixed when it is written) and how many requests it holds. The purge deletes expired
-- batches in small slices through the expiry index, the event loop free between them; before, it asked
-- every project in turn and decoded the batches it emptied, on the event loop. The request-id entries
-- of a batch go by its row ids. Existing batches take their project's plan now (the longest retention
-- for a project no longer there).
ALTER TABLE request_log_batches ADD COLUMN requests INTEGER NOT NULL DEFAULT 0;
ALTER TABLE request_log_batches ADD COLUMN expires_at INTEGER NOT NULL DEFAULT 0;
UPDATE request_log_batches SET
  requests = (
    SELECT count(*) FROM json_each(request_log_batches.rows,
      CASE WHEN request_log_batches.rows LIKE '{%' THEN '$.rows' ELSE '$' END)
    WHERE type <> 'null'),
  expires_at = (first_at / 86400000 + 1 + coalesce(
    (SELECT CASE plan WHEN 'free' THEN 1 WHEN 'pro' THEN 7 WHEN 'business' THEN 30 WHEN 'enterprise' THEN 30
      ELSE 30 END FROM projects WHERE projects.id = request_log_batches.project_id), 30)) * 86400000;
CREATE INDEX request_log_batches_expiry ON request_log_batches (expires_at);
CREATE INDEX request_log_request_ids_row ON request_log_request_ids (project_id, row_id);
