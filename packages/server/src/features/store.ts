import {
  createIdempotencyRepository,
  type IdempotencyRepository,
} from '../idempotency/idempotency-repository.ts';
import { type OpenStorageOptions, openStorage } from '../storage/open-storage.ts';
import type { ReversibleStorage } from '../storage/migrations.ts';
import type { PostgresStorage } from '../storage/postgres.ts';
import type { Storage } from '../storage/repository.ts';
import { GroupCommit } from '../storage/sqlite-group-commit.ts';
import type { SqliteStorage } from '../storage/sqlite.ts';
import { type AuditRecords, createAuditRecords } from './audit/audit-records.ts';
import { createDomainRepository, type DomainRepository } from './domains/domain-repository.ts';
import { type AccountRepository, createAccountRepository } from './identity/account-repository.ts';
import { createKeyRepository, type KeyRepository } from './keys/key-repository.ts';
import { createPostgresPets } from './pets/postgres.ts';
import type { PetRepository } from './pets/repository.ts';
import { createSqlitePets, insertPet } from './pets/sqlite.ts';
import { createProjectRepository, type ProjectRepository } from './projects/project-repository.ts';
import { createPostgresRequestLog, type PostgresRequestLog } from './requests/request-log-postgres.ts';
import type { RequestLogRecords } from './requests/request-log-records.ts';
import { createSqliteRequestLog } from './requests/request-log-sqlite.ts';

/** The features' repositories, each built on the storage engine (storage/). */
export interface Repositories {
  readonly pets: PetRepository;
  /** API keys; a change of one counts in ownWrites (and SQLite's changeToken), a use does not. */
  readonly keys: KeyRepository;
  readonly idempotency: IdempotencyRepository;
  readonly projects: ProjectRepository;
  readonly accounts: AccountRepository;
  readonly domains: DomainRepository;
  /** The API requests made with projects' keys (features/requests/). */
  readonly requestLog: RequestLogRecords;
  /** Who did what in the dashboard and from the command line. */
  readonly audit: AuditRecords;
}

/** The engine with every feature's repository: what the composition hands the features. */
export type Store = Storage & Repositories;

/** A store whose migrations can also be undone (operators and the migration tests). */
export type ReversibleStore = Store & ReversibleStorage;

/** An engine of either dialect, as storage/open-storage.ts opens it. */
export type Engine = SqliteStorage | PostgresStorage;

/** The store of an engine: its repositories reach PostgreSQL's request log with its partition analyses. */
export type StoreOf<E extends Engine> = E &
  Repositories &
  (E extends PostgresStorage ? { readonly requestLog: PostgresRequestLog } : unknown);

/**
 * Builds every feature's repository on `engine`, in its dialect, and attaches them to it: the store is
 * the engine itself, so closing either closes both. Once per engine.
 */
export function openStore<E extends Engine>(engine: E): StoreOf<E> {
  if ('pets' in engine) throw new Error('the store of this storage is open already');
  const repositories = engine.kind === 'sqlite' ? sqliteRepositories(engine) : postgresRepositories(engine);
  return Object.assign(engine, repositories) as StoreOf<E>;
}

/** Opens the database at `databaseUrl` (storage/open-storage.ts) and its store; nothing is migrated. */
export async function openStoreAt(
  databaseUrl: string | undefined,
  options: OpenStorageOptions = {},
): Promise<ReversibleStore> {
  return openStore(await openStorage(databaseUrl, options));
}

/** The repositories both dialects share: plain statements through the engine's executor. */
function sharedRepositories(engine: Engine) {
  const { sql } = engine;
  // A key, a project's plan (every key's plan) or a domain changed: the caches must see it.
  const changed = () => engine.noteOwnWrite();
  return {
    keys: createKeyRepository(sql, changed),
    idempotency: createIdempotencyRepository(sql),
    projects: createProjectRepository(sql, (work) => engine.transaction(work), engine.kind, changed),
    accounts: createAccountRepository(sql),
    domains: createDomainRepository(sql, changed),
    audit: createAuditRecords(sql),
  };
}

/** Pet creates are group-committed (GroupCommit), and the queued ones commit before the file closes. */
function sqliteRepositories(engine: SqliteStorage): Repositories {
  const writes = new GroupCommit(engine.connection, { create: insertPet });
  engine.beforeClose(() => writes.flush());
  return {
    ...sharedRepositories(engine),
    pets: createSqlitePets(engine.connection, writes),
    requestLog: createSqliteRequestLog(engine.connection),
  };
}

/** The request log's partition analyses run in the background until the pool closes. */
function postgresRepositories(engine: PostgresStorage): Repositories & { requestLog: PostgresRequestLog } {
  const requestLog = createPostgresRequestLog({
    sql: engine.sql,
    transaction: (work) => engine.clientTransaction(work),
    log: () => engine.maintenanceLog(),
  });
  engine.beforeClose(() => requestLog.analysis.stop());
  return {
    ...sharedRepositories(engine),
    pets: createPostgresPets(
      (text, params, name) => engine.query(text, params, name),
      (work, keep) => engine.clientTransaction(work, keep),
    ),
    requestLog,
  };
}
