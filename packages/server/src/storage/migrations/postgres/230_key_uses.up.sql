-- A key's last use, apart from its row: written for every key in use once a minute, in key order, into
-- a narrow table, so a minute's uses of 50,000 keys make 50,000 small row versions instead of as many
-- versions of each key's whole row (in about the same time, docs/benchmarks.md). The column
-- api_keys.last_used_at stays: an instance of an earlier version still writes it during a rolling
-- upgrade, and a key's last use is the later of the two.
CREATE TABLE api_key_uses (
  key_id TEXT PRIMARY KEY REFERENCES api_keys (id) ON DELETE CASCADE,
  last_used_at BIGINT NOT NULL
);
INSERT INTO api_key_uses (key_id, last_used_at)
  SELECT id, last_used_at FROM api_keys WHERE last_used_at IS NOT NULL ORDER BY id;
