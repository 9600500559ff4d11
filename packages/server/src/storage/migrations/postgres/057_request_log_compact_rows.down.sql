-- Compact batches back to the array form that the code before 057, and 056's undo, read: each request
-- an array of its eleven fields, its time and strings restored, its latency in milliseconds. Each
-- batch is parsed once, as jsonb (OFFSET 0 keeps the planner from copying the cast into every use).
UPDATE request_log_batches b SET rows = (
  SELECT jsonb_agg(CASE WHEN jsonb_typeof(r.v) = 'null' THEN NULL ELSE jsonb_build_array(
      (r.v ->> 0)::numeric + (c.j ->> 'base')::numeric,
      r.v ->> 1,
      c.j -> 'strings' ->> (r.v ->> 2)::integer,
      c.j -> 'strings' ->> (r.v ->> 3)::integer,
      c.j -> 'strings' ->> (r.v ->> 4)::integer,
      c.j -> 'strings' ->> (r.v ->> 5)::integer,
      r.v ->> 6,
      (r.v ->> 7)::integer,
      c.j -> 'strings' ->> (r.v ->> 8)::integer,
      CASE WHEN jsonb_typeof(r.v -> 9) = 'string' THEN (r.v ->> 9)::double precision
        ELSE (r.v ->> 9)::double precision / 100 END,
      c.j -> 'strings' ->> (r.v ->> 10)::integer
    ) END ORDER BY r.n)::text
  FROM (SELECT b.rows::jsonb AS j OFFSET 0) c, jsonb_array_elements(c.j -> 'rows') WITH ORDINALITY r(v, n)
)
WHERE left(b.rows, 1) = '{';
