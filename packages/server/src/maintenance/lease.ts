import type { SqlExecutor } from '../storage/sql-executor.ts';
import type { Clock } from '../time/clock.ts';

/** A named lease held by one owner at a time, in the database every instance shares. */
export interface Lease {
  /** Takes the lease, or renews it when held already; false while another owner holds it. */
  acquire(): Promise<boolean>;
  /** Lets it go (when held), so another instance takes it at its next try. */
  release(): Promise<void>;
}

/**
 * A lease row (maintenance_leases, migration 116): taken when free, expired, or already this owner's,
 * in one statement, so two instances asking at once never both hold it. It works the same on SQLite
 * (across the processes of one file) and PostgreSQL, needs no session of its own, and an owner that
 * dies holds it `ttlMs` at most.
 */
export function createLease(deps: {
  sql: SqlExecutor;
  clock: Clock;
  name: string;
  owner: string;
  ttlMs: number;
}): Lease {
  const { sql, clock, name, owner, ttlMs } = deps;
  return {
    async acquire() {
      const now = clock.now();
      const taken = await sql.run(
        `INSERT INTO maintenance_leases (name, owner, expires_at) VALUES ($1, $2, $3)
         ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
         WHERE maintenance_leases.owner = excluded.owner OR maintenance_leases.expires_at <= $4`,
        [name, owner, now + ttlMs, now],
      );
      return taken > 0;
    },
    async release() {
      await sql.run('DELETE FROM maintenance_leases WHERE name = $1 AND owner = $2', [name, owner]);
    },
  };
}
