-- Host names that were once a custom domain and were removed. Such a host never becomes "the API"
-- when PETSTORE_API_HOST is unset: it answers 404, not the service's own docs or dashboard.
CREATE TABLE removed_domains (
  hostname TEXT PRIMARY KEY,
  removed_at INTEGER NOT NULL
);
