import type { IdempotencyRecord } from '../storage/records.ts';
import { IDEMPOTENCY_COLUMNS } from '../storage/rows.ts';

/**
 * The idempotency_keys statements of a create with an Idempotency-Key, for both dialects (`$n`
 * placeholders); the create's own insert is its feature's. Each dialect runs them inside its own
 * create transaction: SQLite synchronously in the group commit, PostgreSQL on the transaction's client.
 */
export const CREATE_WITH_KEY = {
  /** An expired record that was not purged yet must not block reuse of its key. */
  deleteExpired: 'DELETE FROM idempotency_keys WHERE api_key_id = $1 AND key = $2 AND expires_at <= $3',
  /** Stores nothing when the key is taken (on PostgreSQL, after waiting for a transaction holding it). */
  storeKey: `INSERT INTO idempotency_keys (${IDEMPOTENCY_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (api_key_id, key) DO NOTHING`,
  /** The record that holds the key, read after storeKey stored nothing. */
  holder: `SELECT ${IDEMPOTENCY_COLUMNS} FROM idempotency_keys WHERE api_key_id = $1 AND key = $2`,
} as const;

/** The values of `storeKey`, in its order, for the record that points at `petId`. */
export function storeKeyValues(record: Omit<IdempotencyRecord, 'petId'>, petId: bigint) {
  return [
    record.apiKeyId,
    record.key,
    record.requestHash,
    petId,
    record.createdAt,
    record.expiresAt,
  ] as const;
}
