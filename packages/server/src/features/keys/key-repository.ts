import type { ApiKeyRecord, AuthenticatedKey, NewApiKey, Plan } from '../../storage/records.ts';
import { AUTHENTICATED_KEY_SELECT, KEY_SELECT, toApiKey, toAuthenticatedKey } from '../../storage/rows.ts';
import type { SqlExecutor } from '../../storage/sql-executor.ts';

/** A key to create, with the limits of its own that hold it below its project's. */
export type NewKey = NewApiKey & Partial<Pick<ApiKeyRecord, 'ownPerMinute' | 'ownPerDay'>>;

/** A key's last use, as key usage writes it in batches. */
export interface KeyUse {
  id: string;
  at: number;
}

/** Key uses written by one statement (two parameters each: well under either dialect's limit). */
const TOUCH_BATCH = 500;

export interface KeyRepository {
  create(key: NewApiKey): Promise<ApiKeyRecord>;
  /** The key for authentication: its last use is not read (AuthenticatedKey). */
  findByDigest(digest: string): Promise<AuthenticatedKey | undefined>;
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
 * Every write of the keys table, and the keys service's pages, written once for SQLite and PostgreSQL:
 * the keys service's (create, revoke, roll) and the storage's own (the operator's plan and ban changes,
 * the guard's bans, the batched "last used"), which run these same statements. Each `change` answers
 * the number of rows it changed.
 */
export function keyRecords(sql: SqlExecutor) {
  return {
    async insert(key: NewKey): Promise<void> {
      await sql.run(
        `INSERT INTO api_keys (id, digest, project_id, prefix, plan, per_minute, per_day, label, environment,
           created_at, expires_at, own_per_minute, own_per_day)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
        [
          key.id,
          key.digest,
          key.projectId ?? null,
          key.prefix ?? null,
          key.plan,
          key.perMinute,
          key.perDay,
          key.label,
          key.environment,
          key.createdAt,
          key.expiresAt,
          key.ownPerMinute ?? null,
          key.ownPerDay ?? null,
        ],
      );
    },
    async get(id: string): Promise<ApiKeyRecord | undefined> {
      const [row] = await sql.all(`${KEY_SELECT} WHERE k.id = $1`, [id]);
      return row && toApiKey(row);
    },
    /** A project's keys in creation order, `limit` of them after the position given. */
    async page(
      projectId: string,
      after: { at: number; id: string } | undefined,
      limit: number,
    ): Promise<ApiKeyRecord[]> {
      const rows = after
        ? await sql.all(
            `${KEY_SELECT} WHERE k.project_id = $1 AND (k.created_at > $2 OR (k.created_at = $2 AND k.id > $3))
             ORDER BY k.created_at, k.id LIMIT $4`,
            [projectId, after.at, after.id, limit],
          )
        : await sql.all(`${KEY_SELECT} WHERE k.project_id = $1 ORDER BY k.created_at, k.id LIMIT $2`, [
            projectId,
            limit,
          ]);
      return rows.map(toApiKey);
    },
    /** The project's keys in use at `now`: neither revoked nor expired (what its plan caps). */
    async countInUse(projectId: string, now: number): Promise<number> {
      const [row] = await sql.all(
        `SELECT count(*) AS n FROM api_keys
         WHERE project_id = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > $2)`,
        [projectId, now],
      );
      return Number(row!.n);
    },
    setLabel: (id: string, label: string | null): Promise<number> =>
      sql.run('UPDATE api_keys SET label = $2 WHERE id = $1', [id, label]),
    /** Whether the active key was revoked by this statement (not by an earlier one). */
    async revoke(id: string, projectId: string, at: number): Promise<boolean> {
      const changed = await sql.run(
        'UPDATE api_keys SET revoked_at = $3 WHERE id = $1 AND project_id = $2 AND revoked_at IS NULL',
        [id, projectId, at],
      );
      return changed > 0;
    },
    /**
     * Marks the key rolled to `successor`, expiring at `until` at the latest; whether this statement
     * did it. One statement with its condition: of two concurrent rolls, exactly one changes the row.
     */
    async roll(
      id: string,
      projectId: string,
      successor: string,
      at: number,
      until: number,
    ): Promise<boolean> {
      const changed = await sql.run(
        `UPDATE api_keys SET rolled_at = $3, rolled_to = $4,
           expires_at = CASE WHEN expires_at IS NULL OR expires_at > $5 THEN $5 ELSE expires_at END
         WHERE id = $1 AND project_id = $2 AND revoked_at IS NULL AND rolled_at IS NULL
           AND (expires_at IS NULL OR expires_at > $3)`,
        [id, projectId, at, successor, until],
      );
      return changed > 0;
    },
    /** Any key, project or not (the operator's `keys revoke` of a standalone key); keeps an earlier revocation's time. */
    revokeAny: (id: string, at: number): Promise<number> =>
      sql.run('UPDATE api_keys SET revoked_at = coalesce(revoked_at, $2) WHERE id = $1', [id, at]),
    setPlan: (id: string, plan: Plan, perMinute: number | null, perDay: number | null): Promise<number> =>
      sql.run('UPDATE api_keys SET plan = $2, per_minute = $3, per_day = $4 WHERE id = $1', [
        id,
        plan,
        perMinute,
        perDay,
      ]),
    setOwnLimits: (id: string, perMinute: number | null, perDay: number | null): Promise<number> =>
      sql.run('UPDATE api_keys SET own_per_minute = $2, own_per_day = $3 WHERE id = $1', [
        id,
        perMinute,
        perDay,
      ]),
    ban: (id: string, until: number): Promise<number> =>
      sql.run('UPDATE api_keys SET banned_until = $2 WHERE id = $1', [id, until]),
    unban: (id: string, at: number): Promise<number> =>
      sql.run('UPDATE api_keys SET banned_until = NULL, ban_lifted_at = $2 WHERE id = $1', [id, at]),
    /**
     * "Last used", a few hundred keys a statement in key order (migration 230: adjacent rows, and the
     * order every instance locks them in), never moving a key's time backwards; a key that does not
     * exist is skipped.
     */
    async touch(uses: readonly KeyUse[]): Promise<void> {
      const ordered = [...uses].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
      for (let from = 0; from < ordered.length; from += TOUCH_BATCH) {
        const batch = ordered.slice(from, from + TOUCH_BATCH);
        const rows = batch.map((_, i) => `($${2 * i + 1}, CAST($${2 * i + 2} AS BIGINT))`).join(', ');
        // The WHERE (not JOIN … ON) keeps SQLite from reading the upsert's ON as the join's.
        await sql.run(
          `INSERT INTO api_key_uses (key_id, last_used_at)
           SELECT v.column1, v.column2 FROM (VALUES ${rows}) AS v, api_keys k WHERE k.id = v.column1
           ORDER BY v.column1
           ON CONFLICT (key_id) DO UPDATE SET last_used_at = excluded.last_used_at
           WHERE api_key_uses.last_used_at < excluded.last_used_at`,
          batch.flatMap((use) => [use.id, use.at]),
        );
      }
    },
  };
}

/**
 * The storage's keys, one implementation for SQLite and PostgreSQL on the keys service's statements
 * (keyRecords above). `changed` is told of every write that changed a key (caches of key records listen);
 * `touch` is not one.
 */
export function createKeyRepository(sql: SqlExecutor, changed: () => void): KeyRepository {
  const records = keyRecords(sql);
  const change = async (write: Promise<number>): Promise<boolean> => {
    const count = await write;
    if (count > 0) changed();
    return count > 0;
  };
  return {
    async create(key) {
      await records.insert(key);
      changed();
      return (await records.get(key.id))!;
    },
    async findByDigest(digest) {
      const [row] = await sql.all(
        `${AUTHENTICATED_KEY_SELECT} WHERE k.digest = $1`,
        [digest],
        'petstore_find_key',
      );
      return row && toAuthenticatedKey(row);
    },
    get: records.get,
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
