import {
  type ApiKeyRecord,
  type AuthenticatedKey,
  type IdempotencyRecord,
  type Pet,
  type PetStatus,
  type Plan,
  PLANS,
} from './records.ts';

/**
 * Row-to-record mapping shared by both dialects. Integer columns arrive as number or bigint depending
 * on the driver and column width, so ids become bigint and instants become number here.
 */
export type Row = Record<string, unknown>;

export const PET_COLUMNS = 'id, name, category_id, status';
const KEY_COLUMNS = `k.id, k.digest, k.project_id, k.prefix, coalesce(p.plan, k.plan) AS plan,
  CASE WHEN p.id IS NULL THEN k.per_minute ELSE p.per_minute END AS per_minute,
  CASE WHEN p.id IS NULL THEN k.per_day ELSE p.per_day END AS per_day,
  k.own_per_minute, k.own_per_day, k.label, k.environment, k.created_at, k.revoked_at, k.expires_at,
  k.banned_until, k.ban_lifted_at, k.rolled_at, k.rolled_to`;
/**
 * A key with the limits it is held to (its project's when it has one, else its own) and its last use:
 * the later of api_key_uses' (migration 230) and the column an earlier version writes.
 */
export const KEY_SELECT = `SELECT ${KEY_COLUMNS},
  CASE WHEN u.last_used_at IS NULL OR k.last_used_at > u.last_used_at THEN k.last_used_at
    ELSE u.last_used_at END AS last_used_at
  FROM api_keys k LEFT JOIN projects p ON p.id = k.project_id LEFT JOIN api_key_uses u ON u.key_id = k.id`;
/**
 * A key as authentication reads it (AuthenticatedKey): without its last use, whose table fills from
 * empty. PostgreSQL plans the lookup once per connection (a prepared statement) from that table's
 * statistics; planned while it was empty, the join was a scan of it, which grew with every key used
 * (50,000 keys in rotation: 4,700 req/s instead of 8,000).
 */
export const AUTHENTICATED_KEY_SELECT = `SELECT ${KEY_COLUMNS}
  FROM api_keys k LEFT JOIN projects p ON p.id = k.project_id`;
export const IDEMPOTENCY_COLUMNS = 'api_key_id, key, request_hash, pet_id, created_at, expires_at';

function nullableNumber(value: unknown): number | null {
  return value === null || value === undefined ? null : Number(value);
}

export function toPet(row: Row): Pet {
  const pet: Pet = {
    id: BigInt(row.id as bigint),
    name: row.name as string,
    categoryId: BigInt(row.category_id as bigint),
  };
  if (row.status !== null && row.status !== undefined) pet.status = row.status as PetStatus;
  return pet;
}

/**
 * The plan as this module's own constant: each row's copy of the text would be a string of its own in
 * every cached key record (tens of bytes a key, with 100,000 keys cached).
 */
function constantPlan(value: unknown): Plan {
  return PLANS.find((plan) => plan === value) ?? (value as Plan);
}

export function toAuthenticatedKey(row: Row): AuthenticatedKey {
  return {
    id: row.id as string,
    digest: row.digest as string,
    projectId: (row.project_id as string | null) ?? null,
    prefix: (row.prefix as string | null) ?? null,
    plan: constantPlan(row.plan),
    perMinute: nullableNumber(row.per_minute),
    perDay: nullableNumber(row.per_day),
    ownPerMinute: nullableNumber(row.own_per_minute),
    ownPerDay: nullableNumber(row.own_per_day),
    label: (row.label as string | null) ?? null,
    environment: row.environment === 'live' ? 'live' : 'test',
    createdAt: Number(row.created_at),
    revokedAt: nullableNumber(row.revoked_at),
    expiresAt: nullableNumber(row.expires_at),
    bannedUntil: nullableNumber(row.banned_until),
    banLiftedAt: nullableNumber(row.ban_lifted_at),
    rolledAt: nullableNumber(row.rolled_at),
    rolledTo: (row.rolled_to as string | null) ?? null,
  };
}

export function toApiKey(row: Row): ApiKeyRecord {
  return { ...toAuthenticatedKey(row), lastUsedAt: nullableNumber(row.last_used_at) };
}

export function toIdempotency(row: Row): IdempotencyRecord {
  return {
    apiKeyId: row.api_key_id as string,
    key: row.key as string,
    requestHash: row.request_hash as string,
    petId: BigInt(row.pet_id as bigint),
    createdAt: Number(row.created_at),
    expiresAt: Number(row.expires_at),
  };
}
