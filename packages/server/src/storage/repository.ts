import type { AccountRepository } from './account-repository.ts';
import type { AuditRecords } from './audit-records.ts';
import type { DomainRepository } from './domain-repository.ts';
import type { ProjectRepository } from './project-repository.ts';
import type { RequestLogRecords } from './request-log-records.ts';

import type { NewPet, Pet, PetStatus } from '@petstore/contract';

export type { NewPet, Pet, PetStatus };

export const PET_STATUSES = ['available', 'pending', 'sold'] as const satisfies readonly PetStatus[];

export interface ListQuery {
  status?: PetStatus;
  /** Keyset cursor: only pets with id strictly greater than this. */
  afterId?: bigint;
  limit: number;
}

export const PLANS = ['free', 'pro', 'business', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];

export interface ApiKeyRecord {
  /** Public identifier, safe to show and log (e.g. `key_3f9a…`). */
  id: string;
  /** Hex SHA-256 digest of the secret key; the key itself is never stored. */
  digest: string;
  /** The project that owns the key, or null for a standalone key (made before projects, or by `keys create --plan`). */
  projectId: string | null;
  /** The first characters of the secret (`ps_test_AbCd`), to tell keys apart; null for keys made before it was kept. */
  prefix: string | null;
  /** The plan the key is held to: its project's, or a standalone key's own. */
  plan: Plan;
  /** Custom limits (enterprise), from the project or the standalone key; null means "the plan's default". */
  perMinute: number | null;
  perDay: number | null;
  label: string | null;
  environment: 'live' | 'test';
  createdAt: number;
  revokedAt: number | null;
  expiresAt: number | null;
  /** Epoch ms until which the key is temporarily banned; null when not banned. */
  bannedUntil: number | null;
  /** Epoch ms at which an operator last lifted a ban (lets instances drop a ban they still hold). */
  banLiftedAt: number | null;
  /** Epoch ms of a recent use: each server process records it at most once a minute per key. */
  lastUsedAt: number | null;
}

export interface NewApiKey {
  id: string;
  digest: string;
  /** A project key's limits are its project's; the plan stored with it is only a record of creation. Default null. */
  projectId?: string | null;
  /** Default null. */
  prefix?: string | null;
  plan: Plan;
  perMinute: number | null;
  perDay: number | null;
  label: string | null;
  environment: 'live' | 'test';
  createdAt: number;
  expiresAt: number | null;
}

/** An Idempotency-Key that created a pet, scoped to one API key. */
export interface IdempotencyRecord {
  apiKeyId: string;
  key: string;
  /** Hex SHA-256 of the canonical request body. */
  requestHash: string;
  /** The pet the first request created (pets never change, so it is the response to replay). */
  petId: bigint;
  createdAt: number;
  expiresAt: number;
}

export type CreateResult =
  | { kind: 'created'; pet: Pet }
  /** The idempotency key was already used (possibly by another instance); the pet was not created. */
  | { kind: 'idempotency_conflict'; existing: IdempotencyRecord };

export interface CreateOptions {
  /** Stored, with the new pet's id, in the same transaction as the pet. */
  idempotency?: Omit<IdempotencyRecord, 'petId'>;
}

export interface PetRepository {
  /** Resolves only after the pet (and its idempotency record) is durably committed. */
  createPet(pet: NewPet, options?: CreateOptions): Promise<CreateResult>;
  getPet(id: bigint): Promise<Pet | undefined>;
  /** Pets in ascending id order, at most `limit` of them. */
  listPets(query: ListQuery): Promise<Pet[]>;
  countPets(): Promise<number>;
}

export interface KeyRepository {
  createKey(key: NewApiKey): Promise<ApiKeyRecord>;
  findKeyByDigest(digest: string): Promise<ApiKeyRecord | undefined>;
  getKey(id: string): Promise<ApiKeyRecord | undefined>;
  /** Every key in creation order, or only a project's. */
  listKeys(projectId?: string): Promise<ApiKeyRecord[]>;
  /** Returns false when no such key exists. */
  revokeKey(id: string, at: number): Promise<boolean>;
  updateKeyPlan(id: string, plan: Plan, perMinute: number | null, perDay: number | null): Promise<boolean>;
  /** Records a ban until the given instant. */
  banKey(id: string, until: number): Promise<boolean>;
  /** Lifts a ban: bannedUntil becomes null and banLiftedAt = at. */
  unbanKey(id: string, at: number): Promise<boolean>;
  /**
   * Records a use of the key at `at`, unless a later one is already recorded. Not a change of the key:
   * caches of key records need not be dropped for it.
   */
  touchKey(id: string, at: number): Promise<void>;
}

export interface IdempotencyRepository {
  /** Unexpired record, or undefined. */
  findIdempotency(apiKeyId: string, key: string, now: number): Promise<IdempotencyRecord | undefined>;
  /** Deletes records whose expiresAt <= now; returns how many. */
  purgeIdempotency(now: number): Promise<number>;
}

export interface Storage extends PetRepository, KeyRepository, IdempotencyRepository {
  readonly kind: 'sqlite' | 'postgres';
  readonly projects: ProjectRepository;
  readonly accounts: AccountRepository;
  readonly domains: DomainRepository;
  /** The API requests made with projects' keys (insights/). */
  readonly requestLog: RequestLogRecords;
  /** Who did what in the dashboard and from the command line. */
  readonly audit: AuditRecords;
  /** Applies pending migrations; returns the names applied. */
  migrate(): Promise<string[]>;
  /** Throws when the database cannot answer. */
  ping(): Promise<void>;
  /**
   * Commits one small write (the `readiness_probe` row) and resolves once it is durable; throws
   * StorageUnavailableError when the database cannot take writes now (used by /readyz).
   */
  probeWrite(): Promise<void>;
  /** Free bytes on the file system holding the database, where the service can see it (SQLite). */
  freeDiskBytes?(): Promise<number>;
  /**
   * A number that changes whenever another connection or process has committed since the last call
   * (SQLite `PRAGMA data_version`), or this one changed a key; lets callers keep caches exactly
   * consistent (own pet creates are signalled by the create itself). Postgres returns
   * undefined (no synchronous cross-process signal: see petsVersion).
   */
  changeToken(): number | undefined;
  /**
   * Where changeToken() has no signal (PostgreSQL): resolves to a value that differs from every
   * earlier one once a pet was committed before this call, read by a query sent after the call
   * (concurrent calls share one). Offered only where pets become visible in id order, so that a full
   * page of a listing can never change.
   */
  petsVersion?(): Promise<bigint>;
  /** Connection pool occupancy, for metrics; absent where there is no pool (SQLite: one connection). */
  poolStats?(): PoolStats;
  close(): Promise<void>;
}

export interface PoolStats {
  /** Connections open. */
  total: number;
  /** Open connections not in use. */
  idle: number;
  /** Queries waiting for a connection. */
  waiting: number;
}
