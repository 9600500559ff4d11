import type { IdempotencyRecord } from '../storage/records.ts';
import { IDEMPOTENCY_COLUMNS, toIdempotency } from '../storage/rows.ts';
import type { SqlExecutor } from '../storage/sql-executor.ts';
import { deleteWhere } from '../storage/limited-delete.ts';

/**
 * Idempotency-Key records. A record is created with its pet, inside the pet's create (each dialect's
 * own transaction: idempotency-sql.ts), so only reading and purging are here.
 */
export interface IdempotencyRepository {
  /** Unexpired record, or undefined. */
  find(apiKeyId: string, key: string, now: number): Promise<IdempotencyRecord | undefined>;
  /** Deletes records whose expiresAt <= now; returns how many. */
  purge(now: number, limit?: number): Promise<number>;
}

/** One implementation for SQLite and PostgreSQL. */
export function createIdempotencyRepository(sql: SqlExecutor): IdempotencyRepository {
  return {
    async find(apiKeyId, key, now) {
      const [row] = await sql.all(
        `SELECT ${IDEMPOTENCY_COLUMNS} FROM idempotency_keys WHERE api_key_id = $1 AND key = $2 AND expires_at > $3`,
        [apiKeyId, key, now],
      );
      return row && toIdempotency(row);
    },
    purge: (now, limit) =>
      sql.run(deleteWhere('idempotency_keys', 'api_key_id, key', 'expires_at <= $1', limit), [now]),
  };
}
