-- A key's last use, apart from its row: written for every key in use once a minute, in key order, into
-- a narrow table ordered by key (WITHOUT ROWID), so a minute's uses of 50,000 keys rewrite a few hundred
-- adjacent pages instead of a page of api_keys per key (2.3 s → 0.4 s, docs/benchmarks.md). The
-- column api_keys.last_used_at stays: an instance of an earlier version still writes it during a rolling
-- upgrade, and a key's last use is the later of the two.
CREATE TABLE api_key_uses (
  key_id TEXT PRIMARY KEY REFERENCES api_keys (id) ON DELETE CASCADE,
  last_used_at INTEGER NOT NULL
) WITHOUT ROWID;
INSERT INTO api_key_uses (key_id, last_used_at)
  SELECT id, last_used_at FROM api_keys WHERE last_used_at IS NOT NULL ORDER BY id;
