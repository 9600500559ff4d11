-- Who runs the maintenance (purges, rollups, domain re-checks): one instance at a time, the one holding
-- the lease, until it lets it go or stops renewing it (maintenance/lease.ts, docs/decisions.md).
CREATE TABLE maintenance_leases (
  name TEXT PRIMARY KEY,
  owner TEXT NOT NULL,
  expires_at BIGINT NOT NULL
);
