import { deleteWhere } from '../storage/limited-delete.ts';
import type { SqlExecutor } from '../storage/sql-executor.ts';

/** A management API answer kept for an Idempotency-Key (migration 220): its body sealed, never in clear. */
export interface IdempotentResponse {
  tokenId: string;
  key: string;
  requestHash: string;
  sealedBody: string;
  createdAt: number;
  expiresAt: number;
}

/** The kept answers, on whichever executor the operation runs (a create's own transaction to store one). */
export function idempotentResponseRecords(sql: SqlExecutor) {
  return {
    /** The token's unexpired answer for `key`, or undefined. */
    async find(tokenId: string, key: string, now: number) {
      const [row] = await sql.all(
        `SELECT request_hash, sealed_body FROM idempotent_responses
          WHERE token_id = $1 AND key = $2 AND expires_at > $3`,
        [tokenId, key, now],
      );
      return row && { requestHash: row.request_hash as string, sealedBody: row.sealed_body as string };
    },
    /** Stores an answer; false when the token holds an unexpired one for the key already. */
    async insert(response: IdempotentResponse): Promise<boolean> {
      const { tokenId, key, requestHash, sealedBody, createdAt, expiresAt } = response;
      await sql.run(
        'DELETE FROM idempotent_responses WHERE token_id = $1 AND key = $2 AND expires_at <= $3',
        [tokenId, key, createdAt],
      );
      const stored = await sql.run(
        `INSERT INTO idempotent_responses (token_id, key, request_hash, sealed_body, created_at, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING`,
        [tokenId, key, requestHash, sealedBody, createdAt, expiresAt],
      );
      return stored === 1;
    },
    /** Deletes answers whose expiresAt <= now (at most `limit`); returns how many. */
    purge: (now: number, limit?: number) =>
      sql.run(deleteWhere('idempotent_responses', 'token_id, key', 'expires_at <= $1', limit), [now]),
  };
}
