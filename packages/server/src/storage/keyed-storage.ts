import type { ApiKeyRecord, IdempotencyRecord, NewApiKey, Plan } from './records.ts';
import type { IdempotencyRepository, KeyPage, KeyRepository, KeyUse } from './repository.ts';
import { IDEMPOTENCY_COLUMNS, KEY_SELECT, toApiKey, toIdempotency } from './rows.ts';
import type { SqlExecutor } from './sql-executor.ts';
import { keyRecords } from '../features/keys/repository.ts';
import { deleteWhere } from './limited-delete.ts';

/**
 * What both dialects' Storage share: API keys and Idempotency-Key records on the dialect-neutral
 * SqlExecutor, one SQL text per operation. Creating a record is part of the pet's create, which each
 * dialect runs in its own transaction (idempotency-sql.ts).
 */
export abstract class KeyedStorage implements KeyRepository, IdempotencyRepository {
  readonly #sql: SqlExecutor;
  /** Changes of keys' records made through this storage (SQLite adds them to its change token). */
  protected keyWrites = 0;

  constructor(sql: SqlExecutor) {
    this.#sql = sql;
  }

  ownWrites(): number {
    return this.keyWrites;
  }

  async createKey(key: NewApiKey): Promise<ApiKeyRecord> {
    await keyRecords(this.#sql).insert(key);
    this.keyWrites++;
    return (await this.getKey(key.id))!;
  }

  async findKeyByDigest(digest: string): Promise<ApiKeyRecord | undefined> {
    const [row] = await this.#sql.all(`${KEY_SELECT} WHERE k.digest = $1`, [digest], 'petstore_find_key');
    return row && toApiKey(row);
  }

  async getKey(id: string): Promise<ApiKeyRecord | undefined> {
    const [row] = await this.#sql.all(`${KEY_SELECT} WHERE k.id = $1`, [id]);
    return row && toApiKey(row);
  }

  async listKeys(projectId?: string): Promise<ApiKeyRecord[]> {
    const rows =
      projectId === undefined
        ? await this.#sql.all(`${KEY_SELECT} ORDER BY k.created_at, k.id`)
        : await this.#sql.all(`${KEY_SELECT} WHERE k.project_id = $1 ORDER BY k.created_at, k.id`, [
            projectId,
          ]);
    return rows.map(toApiKey);
  }

  async listKeysPage({ after, limit }: KeyPage): Promise<ApiKeyRecord[]> {
    const rows = after
      ? await this.#sql.all(
          `${KEY_SELECT} WHERE (k.created_at, k.id) > ($1, $2) ORDER BY k.created_at, k.id LIMIT $3`,
          [after.createdAt, after.id, limit],
        )
      : await this.#sql.all(`${KEY_SELECT} ORDER BY k.created_at, k.id LIMIT $1`, [limit]);
    return rows.map(toApiKey);
  }

  revokeKey(id: string, at: number): Promise<boolean> {
    return this.#changed(keyRecords(this.#sql).revokeAny(id, at));
  }

  updateKeyPlan(id: string, plan: Plan, perMinute: number | null, perDay: number | null): Promise<boolean> {
    return this.#changed(keyRecords(this.#sql).setPlan(id, plan, perMinute, perDay));
  }

  updateKeyOwnLimits(id: string, perMinute: number | null, perDay: number | null): Promise<boolean> {
    return this.#changed(keyRecords(this.#sql).setOwnLimits(id, perMinute, perDay));
  }

  banKey(id: string, until: number): Promise<boolean> {
    return this.#changed(keyRecords(this.#sql).ban(id, until));
  }

  unbanKey(id: string, at: number): Promise<boolean> {
    return this.#changed(keyRecords(this.#sql).unban(id, at));
  }

  touchKeys(uses: readonly KeyUse[]): Promise<void> {
    return keyRecords(this.#sql).touch(uses);
  }

  async findIdempotency(apiKeyId: string, key: string, now: number): Promise<IdempotencyRecord | undefined> {
    const [row] = await this.#sql.all(
      `SELECT ${IDEMPOTENCY_COLUMNS} FROM idempotency_keys WHERE api_key_id = $1 AND key = $2 AND expires_at > $3`,
      [apiKeyId, key, now],
    );
    return row && toIdempotency(row);
  }

  purgeIdempotency(now: number, limit?: number): Promise<number> {
    return this.#sql.run(deleteWhere('idempotency_keys', 'api_key_id, key', 'expires_at <= $1', limit), [
      now,
    ]);
  }

  async #changed(write: Promise<number>): Promise<boolean> {
    const changed = await write;
    if (changed > 0) this.keyWrites++;
    return changed > 0;
  }
}
