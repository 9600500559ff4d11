-- Compact batches back to the array form that the code before 057, and 054's undo, read: each request
-- an array of its eleven fields, its time and strings restored, its latency in milliseconds.
UPDATE request_log_batches SET rows = (
  SELECT json_group_array(CASE WHEN r.type = 'null' THEN NULL ELSE json_array(
      (r.value ->> 0) + (request_log_batches.rows ->> '$.base'),
      r.value ->> 1,
      request_log_batches.rows ->> ('$.strings[' || (r.value ->> 2) || ']'),
      request_log_batches.rows ->> ('$.strings[' || (r.value ->> 3) || ']'),
      request_log_batches.rows ->> ('$.strings[' || (r.value ->> 4) || ']'),
      request_log_batches.rows ->> ('$.strings[' || (r.value ->> 5) || ']'),
      r.value ->> 6,
      r.value ->> 7,
      request_log_batches.rows ->> ('$.strings[' || (r.value ->> 8) || ']'),
      CASE WHEN json_type(r.value, '$[9]') = 'text' THEN CAST(r.value ->> 9 AS REAL)
        ELSE (r.value ->> 9) / 100.0 END,
      request_log_batches.rows ->> ('$.strings[' || (r.value ->> 10) || ']')
    ) END ORDER BY r.key)
  FROM json_each(request_log_batches.rows, '$.rows') r
)
WHERE rows LIKE '{%';
