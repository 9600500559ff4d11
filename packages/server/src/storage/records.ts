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
  /**
   * A project key's own limits, lower than its project's (null: none). The project's limits hold for
   * all its keys together; these hold for this key alone. Standalone keys have only `perMinute`/`perDay`.
   */
  ownPerMinute: number | null;
  ownPerDay: number | null;
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
  /** When the key was rolled (it then expires at the end of the overlap) and the key that replaced it. */
  rolledAt?: number | null;
  rolledTo?: string | null;
}

/**
 * A key as authentication reads it: everything but its last use, which lives in a table of its own
 * (migration 230) that the lookup on every new key's first request does not join.
 */
export type AuthenticatedKey = Omit<ApiKeyRecord, 'lastUsedAt'>;

/**
 * A key to create: the record's own fields, without what only its life sets (revocation, bans, use).
 * `projectId` and `prefix` default to null; a project key's limits are its project's, and the plan
 * stored with it is only a record of creation.
 */
export type NewApiKey = Pick<
  ApiKeyRecord,
  'id' | 'digest' | 'plan' | 'perMinute' | 'perDay' | 'label' | 'environment' | 'createdAt' | 'expiresAt'
> &
  Partial<Pick<ApiKeyRecord, 'projectId' | 'prefix' | 'ownPerMinute' | 'ownPerDay'>>;

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
