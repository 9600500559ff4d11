-- `keys list` reads keys a page at a time in creation order (created_at, id) from a cursor: an index
-- range, however many keys there are.
CREATE INDEX api_keys_created_order ON api_keys (created_at, id);
