import type { Store } from '../store.ts';
import type { IdempotencyRecord, NewPet, Pet } from '../../storage/records.ts';
import type { Clock } from '../../time/clock.ts';
import { IDEMPOTENCY_TTL_MS, requestHash } from '../../idempotency/policy.ts';

export interface IdempotencyScope {
  apiKeyId: string;
  key: string;
}

export type IdempotentOutcome =
  | { kind: 'created'; pet: Pet }
  /** The key created this pet before: answer with it again. */
  | { kind: 'replayed'; petId: bigint }
  | { kind: 'in_progress' }
  | { kind: 'key_reused' };

export interface IdempotentCreateDeps {
  storage: Pick<Store, 'pets' | 'idempotency'>;
  clock: Clock;
  ttlMs?: number;
}

/** Creates pets under an Idempotency-Key, as the policy in policy.ts says. */
export function createIdempotentCreate(
  deps: IdempotentCreateDeps,
): (pet: NewPet, scope: IdempotencyScope) => Promise<IdempotentOutcome> {
  const { storage, clock } = deps;
  const ttl = deps.ttlMs ?? IDEMPOTENCY_TTL_MS;
  /** Keys with a create running in this process: a concurrent duplicate gets 409. */
  const inFlight = new Set<string>();

  const replayOrRefuse = (record: IdempotencyRecord, hash: string): IdempotentOutcome =>
    record.requestHash === hash ? { kind: 'replayed', petId: record.petId } : { kind: 'key_reused' };

  return async (pet, { apiKeyId, key }) => {
    const hash = requestHash(pet);
    const scope = `${apiKeyId}\u0000${key}`;
    if (inFlight.has(scope)) return { kind: 'in_progress' };
    inFlight.add(scope);
    try {
      const now = clock.now();
      const existing = await storage.idempotency.find(apiKeyId, key, now);
      if (existing) return replayOrRefuse(existing, hash);
      const result = await storage.pets.create(pet, {
        idempotency: { apiKeyId, key, requestHash: hash, createdAt: now, expiresAt: now + ttl },
      });
      if (result.kind === 'idempotency_conflict') return replayOrRefuse(result.existing, hash);
      return result;
    } finally {
      inFlight.delete(scope);
    }
  };
}
