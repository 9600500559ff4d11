import type { ApiKeyRecord, NewApiKey, Plan } from '../../storage/records.ts';
import { KEY_SELECT, toApiKey } from '../../storage/rows.ts';
import type { SqlExecutor } from '../../storage/sql-executor.ts';
import { keyRecords, type KeyUse } from './repository.ts';

export type { KeyUse };

export interface KeyRepository {
  create(key: NewApiKey): Promise<ApiKeyRecord>;
  findByDigest(digest: string): Promise<ApiKeyRecord | undefined>;
  get(id: string): Promise<ApiKeyRecord | undefined>;
  /** Every key in creation order, or only a project's. */
  list(projectId?: string): Promise<ApiKeyRecord[]>;
  /**
   * At most `limit` keys in creation order (created_at, then id) after `after`, the last key of the
   * previous page: an index range, in constant memory, however many keys there are.
   */
  listPage(page: KeyPage): Promise<ApiKeyRecord[]>;
  /** Returns false when no such key exists. */
  revoke(id: string, at: number): Promise<boolean>;
  setPlan(id: string, plan: Plan, perMinute: number | null, perDay: number | null): Promise<boolean>;
  /** Sets (or with nulls clears) a project key's own lower limits; false when no such key. */
  setOwnLimits(id: string, perMinute: number | null, perDay: number | null): Promise<boolean>;
  /** Records a ban until the given instant. */
  ban(id: string, until: number): Promise<boolean>;
  /** Lifts a ban: bannedUntil becomes null and banLiftedAt = at. */
  unban(id: string, at: number): Promise<boolean>;
  /**
   * Records uses of keys, each unless a later one is already recorded (an unknown key is skipped), in
   * statements of hundreds of keys. Not a change of the keys: caches of key records need not be dropped.
   */
  touch(uses: readonly KeyUse[]): Promise<void>;
}

/** Where a page of keys starts: after the key created at `createdAt` with id `id`. */
export interface KeyPage {
  after?: { createdAt: number; id: string };
  limit: number;
}

/**
 * The storage's keys, one implementation for SQLite and PostgreSQL on the keys service's statements
 * (keyRecords). `changed` is told of every write that changed a key (caches of key records listen);
 * `touch` is not one.
 */
export function createKeyRepository(sql: SqlExecutor, changed: () => void): KeyRepository {
  const records = keyRecords(sql);
  const change = async (write: Promise<number>): Promise<boolean> => {
    const count = await write;
    if (count > 0) changed();
    return count > 0;
  };
  const get = async (id: string): Promise<ApiKeyRecord | undefined> => {
    const [row] = await sql.all(`${KEY_SELECT} WHERE k.id = $1`, [id]);
    return row && toApiKey(row);
  };
  return {
    async create(key) {
      await records.insert(key);
      changed();
      return (await get(key.id))!;
    },
    async findByDigest(digest) {
      const [row] = await sql.all(`${KEY_SELECT} WHERE k.digest = $1`, [digest], 'petstore_find_key');
      return row && toApiKey(row);
    },
    get,
    async list(projectId) {
      const rows =
        projectId === undefined
          ? await sql.all(`${KEY_SELECT} ORDER BY k.created_at, k.id`)
          : await sql.all(`${KEY_SELECT} WHERE k.project_id = $1 ORDER BY k.created_at, k.id`, [projectId]);
      return rows.map(toApiKey);
    },
    async listPage({ after, limit }) {
      const rows = after
        ? await sql.all(
            `${KEY_SELECT} WHERE (k.created_at, k.id) > ($1, $2) ORDER BY k.created_at, k.id LIMIT $3`,
            [after.createdAt, after.id, limit],
          )
        : await sql.all(`${KEY_SELECT} ORDER BY k.created_at, k.id LIMIT $1`, [limit]);
      return rows.map(toApiKey);
    },
    revoke: (id, at) => change(records.revokeAny(id, at)),
    setPlan: (id, plan, perMinute, perDay) => change(records.setPlan(id, plan, perMinute, perDay)),
    setOwnLimits: (id, perMinute, perDay) => change(records.setOwnLimits(id, perMinute, perDay)),
    ban: (id, until) => change(records.ban(id, until)),
    unban: (id, at) => change(records.unban(id, at)),
    touch: (uses) => records.touch(uses),
  };
}
