import { statfs } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { SQLInputValue } from 'node:sqlite';
import { type Clock, systemClock } from '../time/clock.ts';
import type { ReversibleStorage } from './migrations.ts';
import type {
  ApiKeyRecord,
  CreateOptions,
  CreateResult,
  IdempotencyRecord,
  ListQuery,
  NewApiKey,
  NewPet,
  Pet,
  Plan,
} from './records.ts';
import { createAccountRepository, type AccountRepository } from './account-repository.ts';
import { type AuditRecords, createAuditRecords } from './audit-records.ts';
import { createDomainRepository, type DomainRepository } from './domain-repository.ts';
import { createProjectRepository, type ProjectRepository } from './project-repository.ts';
import type { RequestLogRecords } from './request-log-records.ts';
import { createSqliteRequestLog } from './request-log-sqlite.ts';
import { IDEMPOTENCY_COLUMNS, KEY_SELECT, PET_COLUMNS, toApiKey, toIdempotency, toPet } from './rows.ts';
import { type SqlExecutor, sqlitePlaceholders } from './sql-executor.ts';
import { SqliteDatabase } from './sqlite-database.ts';
import { GroupCommit } from './sqlite-group-commit.ts';
import { migrateDown, migrateUp } from './sqlite-migrate.ts';

export interface SqliteOptions {
  clock?: Clock;
  /** How long a write waits for another process's write lock before failing as unavailable. */
  busyTimeoutMs?: number;
}

/** Readiness waits this long at most for another process's write lock (it blocks the event loop). */
const PROBE_BUSY_TIMEOUT_MS = 500;
const PROBE_WRITE =
  'INSERT INTO readiness_probe (id, checked_at) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET checked_at = excluded.checked_at';

/** Storage in one SQLite file; pet creates are group-committed (see GroupCommit). */
export class SqliteStorage implements ReversibleStorage {
  readonly kind = 'sqlite';
  readonly projects: ProjectRepository;
  readonly accounts: AccountRepository;
  readonly domains: DomainRepository;
  readonly requestLog: RequestLogRecords;
  readonly audit: AuditRecords;
  readonly #db: SqliteDatabase;
  readonly #path: string;
  readonly #clock: Clock;
  readonly #writes: GroupCommit;
  /** Key changes made through this connection, which data_version does not count. */
  #keyWrites = 0;
  #dataVersion: number | undefined;

  constructor(path: string, options: SqliteOptions = {}) {
    this.#clock = options.clock ?? systemClock;
    this.#path = path;
    this.#db = new SqliteDatabase(path, options.busyTimeoutMs ?? 5_000);
    this.#writes = new GroupCommit(this.#db, { create: (pet, create) => this.#insertPet(pet, create) });
    const db = this.#db;
    const sql: SqlExecutor = {
      all: async (text, params = []) => db.all(sqlitePlaceholders(text), ...(params as SQLInputValue[])),
      run: async (text, params = []) => db.run(sqlitePlaceholders(text), ...(params as SQLInputValue[])),
    };
    // A project's plan is every key's plan: its changes count like key changes for the caches.
    this.projects = createProjectRepository(sql, () => this.#keyWrites++);
    this.accounts = createAccountRepository(sql);
    this.domains = createDomainRepository(sql, () => this.#keyWrites++);
    this.requestLog = createSqliteRequestLog(db, sql);
    this.audit = createAuditRecords(sql);
  }

  async migrate(): Promise<string[]> {
    return migrateUp(this.#db, this.#clock);
  }

  async rollback(): Promise<string | undefined> {
    return migrateDown(this.#db);
  }

  async hasSchema(): Promise<boolean> {
    const table = this.#db.get(
      "SELECT 1 AS found FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'",
    );
    return (
      table !== undefined && this.#db.get('SELECT 1 AS found FROM schema_migrations LIMIT 1') !== undefined
    );
  }

  async ping(): Promise<void> {
    this.#db.get('SELECT 1');
  }

  /** One committed (fsynced) write; waits at most PROBE_BUSY_TIMEOUT_MS for another writer's lock. */
  async probeWrite(): Promise<void> {
    this.#db.withBusyTimeout(PROBE_BUSY_TIMEOUT_MS, () =>
      this.#db.transaction(() => this.#db.run(PROBE_WRITE, this.#clock.now())),
    );
  }

  async freeDiskBytes(): Promise<number> {
    const stats = await statfs(dirname(resolve(this.#path)));
    return stats.bavail * stats.bsize;
  }

  /**
   * data_version moves on other connections' commits; own key changes are added so caches see them.
   * It is read once per event-loop turn: a request arriving after another process acknowledged a
   * write is handled in a later turn, so it always sees that write.
   */
  changeToken(): number {
    if (this.#dataVersion === undefined) {
      this.#dataVersion = Number(this.#db.get('PRAGMA data_version')!.data_version);
      setImmediate(() => {
        this.#dataVersion = undefined;
      });
    }
    return this.#dataVersion + this.#keyWrites;
  }

  #keyWritten(changed: number): boolean {
    if (changed > 0) this.#keyWrites++;
    return changed > 0;
  }

  async close(): Promise<void> {
    if (!this.#db.isOpen) return;
    this.#writes.flush();
    this.#db.close();
  }

  createPet(pet: NewPet, options?: CreateOptions): Promise<CreateResult> {
    return this.#writes.submit(pet, options);
  }

  async getPet(id: bigint): Promise<Pet | undefined> {
    const row = this.#db.get(`SELECT ${PET_COLUMNS} FROM pets WHERE id = ?`, id);
    return row && toPet(row);
  }

  async listPets({ status, afterId = 0n, limit }: ListQuery): Promise<Pet[]> {
    const rows =
      status === undefined
        ? this.#db.all(`SELECT ${PET_COLUMNS} FROM pets WHERE id > ? ORDER BY id LIMIT ?`, afterId, limit)
        : this.#db.all(
            `SELECT ${PET_COLUMNS} FROM pets WHERE status = ? AND id > ? ORDER BY id LIMIT ?`,
            status,
            afterId,
            limit,
          );
    return rows.map(toPet);
  }

  async countPets(): Promise<number> {
    return Number(this.#db.get('SELECT count(*) AS n FROM pets')!.n);
  }

  async createKey(key: NewApiKey): Promise<ApiKeyRecord> {
    const row = this.#db.get(
      `INSERT INTO api_keys (id, digest, project_id, prefix, plan, per_minute, per_day, label, environment, created_at, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
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
    );
    this.#keyWrites++;
    return toApiKey(this.#db.get(`${KEY_SELECT} WHERE k.id = ?`, row!.id as string)!);
  }

  async findKeyByDigest(digest: string): Promise<ApiKeyRecord | undefined> {
    const row = this.#db.get(`${KEY_SELECT} WHERE k.digest = ?`, digest);
    return row && toApiKey(row);
  }

  async getKey(id: string): Promise<ApiKeyRecord | undefined> {
    const row = this.#db.get(`${KEY_SELECT} WHERE k.id = ?`, id);
    return row && toApiKey(row);
  }

  async listKeys(projectId?: string): Promise<ApiKeyRecord[]> {
    const rows =
      projectId === undefined
        ? this.#db.all(`${KEY_SELECT} ORDER BY k.created_at, k.id`)
        : this.#db.all(`${KEY_SELECT} WHERE k.project_id = ? ORDER BY k.created_at, k.id`, projectId);
    return rows.map(toApiKey);
  }

  async revokeKey(id: string, at: number): Promise<boolean> {
    return this.#keyWritten(
      this.#db.run('UPDATE api_keys SET revoked_at = coalesce(revoked_at, ?) WHERE id = ?', at, id),
    );
  }

  async updateKeyPlan(
    id: string,
    plan: Plan,
    perMinute: number | null,
    perDay: number | null,
  ): Promise<boolean> {
    const sql = 'UPDATE api_keys SET plan = ?, per_minute = ?, per_day = ? WHERE id = ?';
    return this.#keyWritten(this.#db.run(sql, plan, perMinute, perDay, id));
  }

  async banKey(id: string, until: number): Promise<boolean> {
    return this.#keyWritten(this.#db.run('UPDATE api_keys SET banned_until = ? WHERE id = ?', until, id));
  }

  async unbanKey(id: string, at: number): Promise<boolean> {
    return this.#keyWritten(
      this.#db.run('UPDATE api_keys SET banned_until = NULL, ban_lifted_at = ? WHERE id = ?', at, id),
    );
  }

  async touchKey(id: string, at: number): Promise<void> {
    this.#db.run(
      'UPDATE api_keys SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at < ?)',
      at,
      id,
      at,
    );
  }

  async findIdempotency(apiKeyId: string, key: string, now: number): Promise<IdempotencyRecord | undefined> {
    const row = this.#db.get(
      `SELECT ${IDEMPOTENCY_COLUMNS} FROM idempotency_keys WHERE api_key_id = ? AND key = ? AND expires_at > ?`,
      apiKeyId,
      key,
      now,
    );
    return row && toIdempotency(row);
  }

  async purgeIdempotency(now: number): Promise<number> {
    return this.#db.run('DELETE FROM idempotency_keys WHERE expires_at <= ?', now);
  }

  /** One create inside the group-commit transaction. */
  #insertPet(pet: NewPet, options: CreateOptions | undefined): CreateResult {
    const idempotency = options?.idempotency;
    if (idempotency) {
      // An expired record that was not purged yet must not block reuse of its key.
      this.#db.run(
        'DELETE FROM idempotency_keys WHERE api_key_id = ? AND key = ? AND expires_at <= ?',
        idempotency.apiKeyId,
        idempotency.key,
        idempotency.createdAt,
      );
    }
    const created = toPet(
      this.#db.get(
        `INSERT INTO pets (name, category_id, status) VALUES (?, ?, ?) RETURNING ${PET_COLUMNS}`,
        pet.name,
        pet.categoryId,
        pet.status ?? null,
      )!,
    );
    if (!idempotency) return { kind: 'created', pet: created };
    const stored = this.#db.run(
      `INSERT INTO idempotency_keys (${IDEMPOTENCY_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (api_key_id, key) DO NOTHING`,
      idempotency.apiKeyId,
      idempotency.key,
      idempotency.requestHash,
      created.id,
      idempotency.createdAt,
      idempotency.expiresAt,
    );
    if (stored === 1) return { kind: 'created', pet: created };
    const existing = this.#db.get(
      `SELECT ${IDEMPOTENCY_COLUMNS} FROM idempotency_keys WHERE api_key_id = ? AND key = ?`,
      idempotency.apiKeyId,
      idempotency.key,
    );
    return { kind: 'idempotency_conflict', existing: toIdempotency(existing!) };
  }
}
